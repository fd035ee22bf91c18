// The Live page: the state diagram and the run's tables side by side, the
// sequence diagram under them, the SQL log at the bottom, all updated from
// the trace events of each step.
#pragma once

#include "statetally.h"

#include <QElapsedTimer>
#include <QList>
#include <QWidget>

#include <optional>

class QCheckBox;
class QSplitter;
class QTabWidget;

namespace idem {

class DatabaseTableView;
class LocksView;
class RedisView;
class Trace;
class SequenceView;
class SqlConnection;
class SqlLogModel;
class SqlLogView;
class StateMachineView;
struct ScenarioInfo;

class LiveStage : public QWidget {
    Q_OBJECT
public:
    explicit LiveStage(QWidget* parent = nullptr);

    // A new configuration: its state machine and its tables (empty until shown).
    void setScenario(const ScenarioInfo& info, const QString& variant);
    // The table of the business effect: in front at first, when the variant uses it.
    void setEffectTable(const QString& table) { effectTable_ = table; }
    // Show the lab's own instruments (an observer's lane, its copies of rows).
    void setShowInternals(bool show);
    bool showsInternals() const { return showInternals_; }
    // The table in front: the effect's at first, then whichever the last step changed.
    DatabaseTableView* frontTable() const;
    // What a lesson's frame points at: that table (its tab shown even before
    // the run creates it), the Locks view or the SQL log (a tab in presenter
    // mode) stays in front whatever a step changes or waits for. Empty and
    // false: the change leads again.
    void setPointed(const QString& table, bool locks, bool sqlLog);
    // The heavy half of showing a long seek, built off the window's thread:
    // the SQL log's new rows and the state diagram's counts. Made on the
    // window's thread by prepareCatchUp, filled in a worker, handed to showStep.
    struct CatchUp {
        StateTally tally;
        QList<TraceEvent> logRows;
        qsizetype from = -1;  // the events taken in: [from, to); -1 when none
        qsizetype to = -1;
        bool rebuilt = false;
        // Worker-safe: takes in events [from, to) of the run (all of [0, to)
        // when it was rebuilt); those from `fresh` on are the latest step's.
        void take(const QList<TraceEvent>& events, qsizetype from, qsizetype to, qsizetype fresh,
                  bool rebuilt);
    };
    // Copies what the views have counted so far, for a worker to go on from.
    CatchUp prepareCatchUp() const;
    // Trace events [from, to) are new ([0, to) when rebuild); events from
    // `fresh` on belong to the latest step and are marked. `ready`, when it
    // took in the same events, saves counting them again.
    // With `later` (a worker's hand-over), the state diagram is drawn now,
    // and the SQL log, the tables and the sequence diagram are left for
    // showLater and showSequence. A step shown meanwhile brings them up to
    // date first.
    // `writer` is the run's own session when the step is the latest (what
    // is still open reads through it), else null.
    void showStep(const Trace& trace, const QString& backend, SqlConnection* reader,
                  SqlConnection* writer, qsizetype from, qsizetype to, qsizetype fresh,
                  bool rebuild, CatchUp* ready = nullptr, bool later = false);
    // The SQL log's rows and the tables a hand-over left, as it had them.
    void showLater(SqlConnection* reader, SqlConnection* writer = nullptr);
    bool hasLater() const { return later_.log || later_.tables; }
    // The sequence diagram alone, as showStep draws it.
    void showSequence(const Trace& trace, qsizetype to, qsizetype fresh, bool rebuild);
    // Playing at "instant": the state diagram is drawn, the tables read and
    // the SQL log given its rows a few times a second, not every frame (they
    // change faster than anyone reads them). Stopping shows the rows held
    // and reads the tables from `reader` if they missed a step.
    void setFastPlay(bool fast, SqlConnection* reader, SqlConnection* writer = nullptr);
    static constexpr int kFastRedrawMs = 150;
    // Presenter mode: the diagrams get the room, the SQL log becomes the
    // tables' last tab.
    void setPresenter(bool presenter);
    // One part of the stage alone, taking all its room (the projector shows
    // only it); None: the whole stage.
    enum class Part { None, Sequence, State, Tables };
    void setAlone(Part part);
    Part alone() const { return alone_; }

    StateMachineView* stateView() const { return state_; }
    SequenceView* sequenceView() const { return sequence_; }
    DatabaseTableView* guardTable() const { return guard_; }
    QList<DatabaseTableView*> tables() const { return tables_; }
    QTabWidget* tableTabs() const { return tableTabs_; }
    SqlLogModel* sqlLogModel() const { return sqlLogModel_; }
    SqlLogView* sqlLog() const { return sqlLog_; }
    // The database's locks at the step on show, a tab beside the tables.
    LocksView* locksView() const { return locks_; }
    // The keys of a real Redis at the step on show (--redis), a tab beside
    // the tables while the run keeps keys there.
    RedisView* redisView() const { return redis_; }
    // The step on show of a run that uses Redis (`on`) or not: the Redis
    // tab shown with the keys after events [0, to) ([from, to) new unless
    // `rebuild`, as showStep's), or hidden.
    void showRedis(const QList<TraceEvent>& events, qsizetype from, qsizetype to, bool rebuild,
                   bool on);
    // Row versions: PostgreSQL's xmin and xmax beside each row of the
    // tables (a checkbox in the tables' corner, off on other databases).
    QCheckBox* rowVersionsBox() const { return rowVersions_; }
    bool showsRowVersions() const;

signals:
    // The tables want reading again (row versions were switched).
    void tablesWanted();

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void retranslate();
    void arrange();
    void applyInternals();
    void bringChangeToFront(bool firstLook);
    // Brings the pointed table or the Locks view to the front; false when
    // the frame points at neither (or at one this run does not show).
    bool bringPointedToFront();
    void refreshTables(SqlConnection& reader, SqlConnection* writer, bool rebuild);
    // The SQL log's rows held back (by a hand-over, or playing at
    // "instant"), and shown in order.
    void holdLogRows(QList<TraceEvent> rows, bool rebuild);
    void showLogLater();
    void applyTabs();
    void fitTables();

    StateMachineView* state_;
    SequenceView* sequence_;
    QTabWidget* tableTabs_;
    DatabaseTableView* guard_ = nullptr;  // one of tables_, or nullptr
    QList<DatabaseTableView*> tables_;
    QString guardName_;
    QString cast_;  // the scenario and variant the views are set up for
    QString effectTable_;
    QString pointedTable_;  // setPointed
    bool pointedLocks_ = false;
    bool pointedSqlLog_ = false;
    QStringList internalTables_;  // ScenarioInfo::internalTables
    bool showInternals_ = false;
    bool firstLook_ = true;  // the first showing of a configuration
    SqlLogModel* sqlLogModel_;
    SqlLogView* sqlLog_;
    LocksView* locks_;
    RedisView* redis_;
    bool redisOn_ = false;
    QCheckBox* rowVersions_;
    QString backend_;  // the database of the run on show
    void applyBackend(const QString& backend);
    void applyRowVersionsBox();
    QSplitter* top_;
    QSplitter* split_;
    bool presenter_ = false;
    Part alone_ = Part::None;
    bool fastPlay_ = false;
    bool tablesStale_ = false;       // steps the tables have not been read after
    bool uncommittedShown_ = false;  // the tables show rows of a transaction still open
    QElapsedTimer tablesRead_;
    QElapsedTimer logShown_;  // the SQL log last took rows
    // What a worker's hand-over left for showLater, and the SQL log's rows
    // held back while playing at "instant".
    struct Later {
        bool log = false;  // logRows are held
        QList<TraceEvent> logRows;
        bool logRebuild = false;     // the rows are the log's all, not more of it
        bool tables = false;         // the tables are to be read
        bool tablesRebuild = false;  // ... as a new run's
    };
    Later later_;
    QSize fitted_;  // the tab bar's size the tables were fitted to
    // Whether the heights were shared for a variant with a state machine
    // (presenter mode); unset: not shared since arrange().
    std::optional<bool> downForMachine_;
};

}  // namespace idem
