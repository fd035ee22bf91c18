// The scenario picker: the article's recommendation table (scenario |
// recommended technique | why), then natural ops, read idempotency and the
// misconceptions. Every registered scenario appears; none is hard-wired here.
#pragma once

#include <QColor>
#include <QPalette>
#include <QWidget>

class QTableWidget;

namespace idem {

class ScenarioPicker : public QWidget {
    Q_OBJECT
public:
    explicit ScenarioPicker(QWidget* parent = nullptr);
    QString currentScenario() const;
    // Highlights a scenario's row; only a click or Enter emits scenarioSelected.
    void selectScenario(const QString& id);
    QTableWidget* table() const { return table_; }
    // One column, when the list is narrower than its three columns need:
    // each scenario's technique under its name, the why in its tooltip (and
    // in the explanation).
    bool isCompact() const { return compact_; }
    // The group header rows' background (their text is the window text).
    static QColor headerBackground(const QPalette& palette);

signals:
    void scenarioSelected(const QString& id);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void rebuild();
    void choose(int row);
    void setCompact(bool compact);
    // Fits the rows' heights to their wrapped text, headings and Chinese
    // lines included: now when the list is on
    // screen, else when it is first shown (laying text out is costly, and a
    // hidden list's widths are not yet its own).
    void fitRows();
    // The same once, after the header has settled the columns' widths.
    void fitRowsSoon();
    bool compact_ = false;
    bool rowsStale_ = true;
    bool fitPending_ = false;
    QTableWidget* table_;
};

}  // namespace idem
