#include "playback.h"

#include "run.h"
#include "sqlconnection.h"

namespace idem {

Playback::Playback(QObject* parent) : QObject(parent) {}
Playback::~Playback() = default;

bool Playback::load(const RunConfig& config, const Scenario& scenario, QString* error) {
    // A dry run to the end: how many steps there are, and how it ends.
    Run dry(config, scenario, RunOptions::untraced());
    if (!dry.start(error))
        return false;
    int steps = 0;
    while (dry.step()) ++steps;
    if (!dry.finish(error))
        return false;
    const Summary summary = dry.summary();

    config_ = config;
    scenario_ = &scenario;
    length_ = steps;
    finalSummary_ = summary;
    if (!rebuild(error))
        return false;
    emit loaded();
    emit positionChanged(position_, length_);
    return true;
}

bool Playback::rebuild(QString* error) {
    reader_.reset();
    run_ = std::make_unique<Run>(config_, *scenario_);
    position_ = 0;
    stepBegin_ = 0;
    if (!run_->start(error)) {
        run_.reset();
        return false;
    }
    reader_ = run_->openReader();
    return true;
}

qint64 Playback::virtualTime() const {
    return run_ ? run_->now() : 0;
}

Summary Playback::liveSummary() const {
    if (!run_ || !reader_)
        return {};
    Reader reader(*reader_);
    try {
        return run_->judgeNow(reader);
    } catch (const ReadFailure&) {
        // Mid-run a scenario's table may not exist yet: nothing is certain.
        return {};
    }
}

void Playback::stepForward() {
    if (!run_ || atEnd())
        return;
    const qsizetype before = run_->trace().size();
    stepBegin_ = before;
    run_->step();
    ++position_;
    emit advanced(before, run_->trace().size());
    emit positionChanged(position_, length_);
}

void Playback::stepBack() {
    seek(position_ - 1);
}

void Playback::seek(int target) {
    if (!run_)
        return;
    target = std::clamp(target, 0, length_);
    if (target == position_)
        return;
    if (target > position_) {
        const qsizetype before = run_->trace().size();
        while (position_ < target) {
            stepBegin_ = run_->trace().size();
            if (!run_->step())
                break;
            ++position_;
        }
        emit advanced(before, run_->trace().size());
    } else {
        QString error;
        if (!rebuild(&error))
            return;
        while (position_ < target) {
            stepBegin_ = run_->trace().size();
            if (!run_->step())
                break;
            ++position_;
        }
        emit rewound();
    }
    emit positionChanged(position_, length_);
}

}  // namespace idem
