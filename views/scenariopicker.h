// The scenario picker: the article's recommendation table (scenario |
// recommended technique | why), then natural ops, read idempotency and the
// misconceptions. Every registered scenario appears; none is hard-wired here.
#pragma once

#include <QWidget>

class QTableWidget;

namespace idem {

class ScenarioPicker : public QWidget {
    Q_OBJECT
public:
    explicit ScenarioPicker(QWidget* parent = nullptr);
    QString currentScenario() const;
    void selectScenario(const QString& id);
    QTableWidget* table() const { return table_; }

signals:
    void scenarioSelected(const QString& id);

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void rebuild();
    QTableWidget* table_;
};

}  // namespace idem
