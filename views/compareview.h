// Compare: the same input under two variants side by side (by default the
// unguarded one against the recommended one), with both outcomes and both
// guard tables as the runs left them.
#pragma once

#include "runconfig.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;

namespace idem {

class DatabaseTableView;
class OutcomePanel;
class Scenario;

class CompareView : public QWidget {
    Q_OBJECT
public:
    explicit CompareView(QWidget* parent = nullptr);
    // Takes the fired input; picks the default pair of variants (keeps the
    // chosen pair within one scenario). What was compared before is cleared,
    // and compared again at once when the page is on screen.
    void setInput(const Scenario& scenario, const RunConfig& config);
    // The input both sides last ran on (empty config before any run).
    const RunConfig& ranOn() const { return ranOn_; }
    QString inputText() const;
    OutcomePanel* outcome(int side) const { return outcomes_[side]; }
    DatabaseTableView* table(int side) const { return tables_[side]; }

public slots:
    void compare();

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void clearSides();
    const Scenario* scenario_ = nullptr;
    RunConfig config_;
    RunConfig ranOn_;
    QStringList errors_;
    QLabel* input_;
    QPushButton* run_;
    QComboBox* variants_[2];
    OutcomePanel* outcomes_[2];
    DatabaseTableView* tables_[2];
};

}  // namespace idem
