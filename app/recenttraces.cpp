#include "recenttraces.h"

#include "settings.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace idem {

RecentTraces::RecentTraces(bool remember, QWidget* parent)
    : QObject(parent), remember_(remember), menu_(new QMenu(parent)) {
    menu_->setObjectName(QStringLiteral("recent"));
    // Each entry's tooltip is its whole path.
    menu_->setToolTipsVisible(true);
    connect(menu_, &QMenu::aboutToShow, this, &RecentTraces::rebuild);
    retranslate();
}

QStringList RecentTraces::paths() const {
    return remember_ ? QSettings().value(settings::kRecentTraces).toStringList() : paths_;
}

void RecentTraces::store(const QStringList& paths) {
    if (remember_)
        QSettings().setValue(settings::kRecentTraces, paths);
    else
        paths_ = paths;
    // Later: the entry that asked (Clear the list) may be the one rebuilding deletes.
    QMetaObject::invokeMethod(this, &RecentTraces::rebuild, Qt::QueuedConnection);
}

void RecentTraces::add(const QString& path) {
    const QFileInfo info(path);
    const QString absolute = info.exists() ? info.canonicalFilePath() : info.absoluteFilePath();
    QStringList list = paths();
    list.removeAll(absolute);
    list.prepend(absolute);
    store(list.mid(0, kMost));
}

void RecentTraces::clear() {
    store({});
}

void RecentTraces::retranslate() {
    menu_->setTitle(tr("Open &recent"));
    rebuild();
}

void RecentTraces::rebuild() {
    menu_->clear();
    const QStringList list = paths();
    if (list.isEmpty())
        menu_->addAction(tr("No trace opened yet"))->setEnabled(false);
    // A file name may hold "&", which a menu would take for a mnemonic.
    const auto shown = [](QString text) {
        return text.replace(QLatin1Char('&'), QLatin1String("&&"));
    };
    for (int i = 0; i < list.size(); ++i) {
        const QString path = list.at(i);
        const QFileInfo info(path);
        const bool there = info.isFile();
        const QString number = QStringLiteral("&%1").arg(i + 1);
        const QString name = shown(info.fileName());
        const QString folder = shown(QDir::toNativeSeparators(info.absolutePath()));
        auto* entry =
            new QAction(there ? tr("%1 %2 — %3").arg(number, name, folder)
                              : tr("%1 %2 — %3 (no longer there)").arg(number, name, folder),
                        menu_);
        entry->setData(path);
        entry->setEnabled(there);
        entry->setToolTip(there ? QDir::toNativeSeparators(path)
                                : tr("%1 is no longer there: it was moved or deleted")
                                      .arg(QDir::toNativeSeparators(path)));
        connect(entry, &QAction::triggered, this, [this, path] { emit openRequested(path); });
        menu_->addAction(entry);
    }
    menu_->addSeparator();
    QAction* clearAll = menu_->addAction(tr("&Clear the list"));
    clearAll->setObjectName(QStringLiteral("clear-recent"));
    clearAll->setEnabled(!list.isEmpty());
    connect(clearAll, &QAction::triggered, this, &RecentTraces::clear);
}

}  // namespace idem
