// The Workbench page (SPEC section 9): the ladder of challenges with each
// one's state, the chosen challenge's story, targets and hints, the editor
// of the student's handler (saved as a plain .js file, reloaded when it
// changes on disk), Check in a worker thread with its progress and Escape to
// cancel, the results, and the smallest failing run handed to the stage.
#pragma once

#include "attack.h"

#include <QMap>
#include <QTimer>
#include <QWidget>

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

class QCheckBox;
class QComboBox;
class QFileSystemWatcher;
class QJSEngine;
class QLabel;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QSplitter;
class QTableWidget;
class QTemporaryDir;

namespace idem {

struct Challenge;
class HandlerEditor;

class WorkbenchView : public QWidget {
    Q_OBJECT
public:
    // remember: keep the handlers in the user's data folder and each
    // challenge's state in the settings; otherwise in a folder of its own
    // that goes with the view (`idemlab shot`, tests).
    explicit WorkbenchView(bool remember = true, QWidget* parent = nullptr);
    ~WorkbenchView() override;

    // The language of the stories and hints: "zh" or "en".
    void setLanguage(const QString& code);
    // Shows a challenge: its story, and its handler from its file (the
    // starter when there is none yet). The one on screen is saved first
    // when it has edits.
    void openChallenge(const QString& id);
    QString challengeId() const;
    // The folder of the handlers: one `ID.js` each, and the failing runs'
    // traces in `traces/`.
    QString folder() const { return folder_; }  // empty until the first save
    QString handlerPath() const;
    // Writes the editor's text to the handler's file; false with a message.
    bool save(QString* error = nullptr);
    // "new", "failed" or "passed" on the backend.
    QString stateOf(const QString& challengeId, const QString& backend) const;

    // Check: every schedule of the challenge's attacks on the chosen
    // database, in a worker thread (progress on the page, Escape cancels).
    void check();
    // The same in the calling thread (`idemlab shot`, tests).
    void checkNow();
    bool isChecking() const { return worker_.joinable(); }
    // Waits for a check in progress and shows its result (`idemlab shot`, tests).
    void finishCheck() { workerDone(generation_); }
    void cancel();
    // Cancels a check in progress and waits for its worker.
    void stop();
    // The last finished check, if any.
    const AttackResult* lastResult() const { return last_.get(); }
    // Marks the line of attempt `attempt`'s statement number `index`
    // (1-based) in the last failing run; false when it has none.
    bool markStatement(int attempt, int index);
    // A lesson's frame: the challenge's starter in the editor as one edit,
    // which undo takes back. The student's handler stays in its file: the
    // starter is written over it only by a save of theirs (Ctrl+S), never
    // by Check, switching challenges or quitting.
    void showStarter();
    // Shows the next hint; false when all are shown.
    bool revealHint();

    HandlerEditor* editor() const { return editor_; }
    QListWidget* ladder() const { return ladder_; }
    QTableWidget* results() const { return results_; }
    QCheckBox* redisBox() const { return redis_; }
    // Chooses the database and level a check runs on (a level it lacks:
    // its own).
    void chooseDatabase(const QString& backend, const QString& isolation);
    QComboBox* backendBox() const { return backend_; }
    QComboBox* isolationBox() const { return isolation_; }
    QPushButton* checkButton() const { return check_; }
    QPushButton* stepButton() const { return step_; }
    QLabel* problemLabel() const { return problem_; }
    QLabel* detailLabel() const { return detail_; }
    QLabel* storyLabel() const { return story_; }

signals:
    // "Step the failing run": its trace, to open on the stage.
    void stepRequested(const QString& tracePath);
    // A check ended (passed, failed, cancelled or refused).
    void checkFinished();
    // A check started or ended (Escape stops one).
    void checkingChanged(bool checking);
    // Save (the button; the window's Ctrl+S does the same).
    void saveRequested();
    // A line for the window's status bar.
    void message(const QString& text);
    // Another challenge's handler is in the editor (handlerPath()).
    void handlerChanged();
    // Emitted by the worker.
    void workerEnded(quint64 generation, QPrivateSignal);

protected:
    void changeEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void retranslate();
    void fillLadder();
    void showStory();
    void loadHandler();
    // Compiles the handler (parseNow) once the page is on screen.
    void syntaxCheck();
    void parseNow();
    void showFileState();
    void fileChanged(const QString& path);
    void startOver();
    void workerDone(quint64 generation);
    void showProgress();
    void finish(const AttackResult& result);
    void setState(const QString& challengeId, const QString& backend, const QString& state);
    QString describe(const AttackResult& result) const;
    void fillResults();
    // The Redis choice: offered where the challenge's scenario has a Redis
    // form and redis-server is installed; said why not elsewhere.
    void updateRedisChoice();
    // The database chooser's servers (each offered where installed) and the
    // chosen one's isolation levels.
    void fillDatabases();
    void addResultRow(const AttackResult& result);
    // "passed on SQLite, failed on MariaDB, not tried on PostgreSQL", the
    // chosen database first.
    QString ladderStates(const QString& challengeId, const QString& chosen) const;
    void fillIsolations();
    // "SQLite", "SQLite + Redis": where the check runs.
    QString checkedOn(const AttackResult* result = nullptr) const;
    // The editor holds the starter and the handler's file a text of the
    // student's: what is on screen is not written over it unasked.
    bool starterOverOwnFile() const;
    // The handlers' folder, made on first use; false with the message.
    bool makeFolder(QString* error);
    QString tracesFolder() const;
    const Challenge* challenge() const;

    bool remember_;
    QString language_ = QStringLiteral("en");
    std::unique_ptr<QTemporaryDir> scratch_;  // the folder when not remembering
    QString folder_;
    QString challenge_;
    QMap<QString, QString> states_;  // "id/backend" → state, when not remembering
    QMap<QString, int> hintsShown_;

    QSplitter* split_;
    QLabel* ladderTitle_;
    QListWidget* ladder_;
    QLabel* title_;
    QLabel* story_;
    QPushButton* hint_;
    QLabel* hints_;
    QLabel* file_;
    QPushButton* save_;
    QPushButton* starter_;
    HandlerEditor* editor_;
    QLabel* problem_;
    QPushButton* check_;
    QPushButton* cancel_;
    QComboBox* backend_;
    QComboBox* isolation_;  // the chosen database's levels; its own first
    QCheckBox* redis_;      // a private Redis for redis.call and a consumer's stream
    QLabel* boundLabel_;
    QSpinBox* bound_;
    QProgressBar* progress_;
    QLabel* progressText_;
    QTableWidget* results_;
    QLabel* detail_;
    QPushButton* step_;

    // Compiles as the student types and runs nothing; made when first needed.
    std::unique_ptr<QJSEngine> parser_;
    bool parseStale_ = false;  // the text changed while the page was hidden
    QTimer parseLater_;
    QFileSystemWatcher* watcher_;
    QTimer progressTimer_;

    std::thread worker_;
    std::shared_ptr<std::atomic_bool> stop_;
    std::shared_ptr<std::atomic<qint64>> runs_;
    std::mutex resultMutex_;
    std::unique_ptr<AttackResult> pending_;  // the worker's result, until taken
    std::unique_ptr<AttackResult> last_;
    // The last check's result on each database and level ("mariadb/serializable").
    QMap<QString, AttackResult> byBackend_;
    quint64 generation_ = 0;
    QString checkingBackend_;
    QString checkingIsolation_;
    bool checkingRedis_ = false;
};

}  // namespace idem
