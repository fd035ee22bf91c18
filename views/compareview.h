// Compare: the same input under two variants, or on two databases, side by
// side (by default the scenario's baseline against its recommended variant
// on the fired database), with both outcomes, both guard tables as the runs
// left them and both sequence diagrams.
#pragma once

#include "runconfig.h"

#include <QWidget>

#include <atomic>
#include <memory>

class QComboBox;
class QLabel;
class QPushButton;
class QScrollArea;
class QTabWidget;
class QTimer;

namespace idem {

class DatabaseTableView;
class OutcomePanel;
class Scenario;
class SequenceView;
class Sweeper;

struct CompareRuns;

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
    QString inputText();
    // The page's widgets are built when it is first shown (start-up builds
    // none of them); these build them now when asked first.
    OutcomePanel* outcome(int side);
    DatabaseTableView* table(int side);
    SequenceView* sequence(int side);
    // Chooses a side's database (sqlite, mariadb, postgres) as its chooser
    // does; the next comparison runs it there.
    void setBackend(int side, const QString& backend);
    QString backend(int side) const;
    // Above this many estimated statements a side's events are not kept:
    // its sequence diagram says so instead of holding a large run twice.
    static constexpr qint64 kMaxDrawnStatements = 20'000;

    // The chosen pair on the fired input, ready to run (nullptr before a fire).
    std::shared_ptr<CompareRuns> prepare();
    // Shows what runComparison (models/engine/comparison.h) computed (on the window's thread), then
    // lets go of both runs through the sweeper given, if any. With `rightLater` (a worker's
    // hand-over) the right side comes a frame after the left: each side's layout and repaint fit a
    // frame, where both overran one.
    void show(const std::shared_ptr<CompareRuns>& runs, bool rightLater = false);
    // True while the right side of a comparison waits for its frame.
    bool isShowing() const { return pending_ != nullptr; }
    // Where finished comparisons are let go of: a slice at a time between
    // frames (a comparison at the fire panel's largest holds two runs of
    // 300,000 events; freed at once here they were 15 ms of one frame).
    void letGoThrough(Sweeper* sweeper) { sweeper_ = sweeper; }

public slots:
    // Runs both sides now and shows them.
    void compare();
    // From the page's own controls: a listener to compareRequested runs the
    // comparison (in the background); without one it runs at once.
    void requestCompare();

signals:
    void compareRequested();

protected:
    void changeEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void build();
    void fitOutcomes();
    // Offers the scenario's variants on both sides (keeping the chosen pair
    // when the scenario is the same).
    void fillVariants(bool sameScenario);
    void fillVariants(int side, bool keep);
    void fillBackends();
    void backendChosen(int side);
    void retranslate();
    void clearSides();
    // One side's outcome and table, or why it has none.
    void showSide(const CompareRuns& runs, int side);
    // Both sides shown: which input they ran on, said above them.
    void finishShowing(const CompareRuns& runs);
    void showRightSide();
    void letGo(CompareRuns& runs, int side);
    const Scenario* scenario_ = nullptr;
    RunConfig config_;
    RunConfig ranOn_;
    quint64 generation_ = 0;  // which input a comparison ran on
    Sweeper* sweeper_ = nullptr;
    std::shared_ptr<CompareRuns> pending_;  // its right side waits for a frame
    QTimer* rightLater_ = nullptr;
    QStringList errors_;
    QLabel* input_ = nullptr;  // nullptr until built
    QPushButton* run_ = nullptr;
    QComboBox* variants_[2] = {};
    QComboBox* backends_[2] = {};
    QTabWidget* details_[2] = {};  // each side's table and sequence diagram
    SequenceView* sequences_[2] = {};
    QLabel* sequenceNotes_[2] = {};  // why a side has no diagram
    QString notedBackend_[2];        // ... the database it names (empty: no note)
    void sayNotes();
    OutcomePanel* outcomes_[2] = {};
    QScrollArea* outcomeRooms_[2] = {};
    static constexpr int kOutcomeShare = 40;  // % of the page an outcome may take
    DatabaseTableView* tables_[2] = {};
};

}  // namespace idem
