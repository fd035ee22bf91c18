// The window's file commands behind the menus: open and save a trace,
// export the diagram in front as a picture, copy the table in front as CSV.
#include "mainwindow.h"

#include "diagramexport.h"
#include "livestage.h"
#include "sequenceview.h"
#include "stagedirector.h"
#include "statemachineview.h"
#include "tableview.h"
#include "windowexports.h"

#include <QFileDialog>
#include <QMessageBox>
#include <QTabWidget>

namespace idem {

void MainWindow::openTrace() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open trace"), {},
                                                      tr("Idempotency Lab traces (*.json)"));
    if (!path.isEmpty())
        openTraceAt(path);
}

void MainWindow::openTraceAt(const QString& path) {
    director_->openTrace(path);
}

void MainWindow::saveTrace() {
    if (!playback_->isLoaded())
        return;
    // *.idemlab.json: the name a file manager knows a trace by.
    const QString path =
        exports_->askSavePath(tr("Save trace"), exports_->runFileStem() + ".idemlab.json",
                              tr("Idempotency Lab traces (*.json)"));
    if (path.isEmpty())
        return;
    saveTraceTo(path);
}

void MainWindow::saveTraceTo(const QString& path) {
    if (!exports_->refused(path))
        director_->saveTraceTo(path);
}

void MainWindow::exportDiagram(bool svg) {
    director_->showLaterNow();
    SequenceView* sequenceView = live_->sequenceView();
    const bool sequence = sequenceView->hasFocus() || sequenceView->isAncestorOf(focusWidget());
    QGraphicsScene* scene = sequence ? sequenceView->scene() : live_->stateView()->scene();
    const QString name = sequence ? QStringLiteral("sequence") : QStringLiteral("state");
    const QString path =
        exports_->askSavePath(tr("Export diagram"), name + (svg ? ".svg" : ".png"),
                              svg ? tr("SVG images (*.svg)") : tr("PNG images (*.png)"));
    if (path.isEmpty())
        return;
    QString error;
    const bool ok = svg ? exportSceneSvg(scene, path, windowTitle(), &error)
                        : exportScenePng(scene, path, &error);
    if (!ok)
        showError(tr("Cannot export the diagram"), error);
}

void MainWindow::copyCurrentTableCsv() {
    // The table in front: the one the room is looking at.
    if (auto* table = qobject_cast<DatabaseTableView*>(live_->tableTabs()->currentWidget()))
        table->copyCsv();
}

}  // namespace idem
