// Drives one run step by step for the window: reset, step, step back, seek.
// Stepping back re-runs the same configuration deterministically up to the
// previous step (runs are small), so no step needs hand-written undo.
#pragma once

#include "runconfig.h"
#include "summary.h"

#include <QJsonObject>
#include <QObject>

#include <memory>

namespace idem {

class Run;
class Scenario;
class SqlConnection;

class Playback : public QObject {
    Q_OBJECT
public:
    explicit Playback(QObject* parent = nullptr);
    ~Playback() override;

    // Loads a configuration: a dry run measures its length and final summary,
    // then a fresh run waits at step 0. Returns false with a message.
    bool load(const RunConfig& config, const Scenario& scenario, QString* error);
    bool isLoaded() const { return run_ != nullptr; }

    const RunConfig& config() const { return config_; }
    const Scenario* scenario() const { return scenario_; }
    const Run* run() const { return run_.get(); }
    // A connection that reads what the run has committed so far.
    SqlConnection* reader() const { return reader_.get(); }

    int position() const { return position_; }
    // Where the trace events of the latest step begin.
    qsizetype lastStepBegin() const { return stepBegin_; }
    int length() const { return length_; }
    bool atEnd() const { return position_ >= length_; }
    qint64 virtualTime() const;
    // The summary of the whole run (from the dry run).
    const Summary& finalSummary() const { return finalSummary_; }
    // The judge's verdict on the database as it is at this step.
    Summary liveSummary() const;

public slots:
    void stepForward();
    void stepBack();
    void seek(int position);
    void reset() { seek(0); }
    void toEnd() { seek(length_); }

signals:
    // A new configuration was loaded: views start over.
    void loaded();
    // The run went forward; trace events [from, to) are new.
    void advanced(qsizetype from, qsizetype to);
    // The run was rebuilt at an earlier position: views rebuild from the trace.
    void rewound();
    void positionChanged(int position, int length);

private:
    bool rebuild(QString* error);

    RunConfig config_;
    const Scenario* scenario_ = nullptr;
    std::unique_ptr<Run> run_;
    std::unique_ptr<SqlConnection> reader_;
    int position_ = 0;
    int length_ = 0;
    qsizetype stepBegin_ = 0;
    Summary finalSummary_;
};

}  // namespace idem
