#include "stepnarrator.h"

#include "narration.h"
#include "traceevent.h"

#include <algorithm>

namespace idem {

StepNarrator::StepNarrator(int intents, const ScenarioWords* words)
    : intents_(intents), words_(words) {}
StepNarrator::~StepNarrator() = default;
StepNarrator::StepNarrator(StepNarrator&&) noexcept = default;
StepNarrator& StepNarrator::operator=(StepNarrator&&) noexcept = default;

void StepNarrator::startOver() {
    narrator_ = std::make_unique<Narrator>(intents_, words_);
    fed_ = 0;
    // Nothing is told yet: the same step asked next (a rewind that came back
    // to where it was) is told anew, not answered with the empty caption.
    told_.clear();
    toldFrom_ = -1;
    toldTo_ = -1;
}

StepNarrator::Told StepNarrator::narrate(const QList<TraceEvent>& events, qsizetype from,
                                         qsizetype to, bool restart, const Plain& plain) {
    // The same step asked again (play toggled): told already.
    if (!restart && narrator_ && from == toldFrom_ && to == toldTo_)
        return {told_};
    // A step that recorded nothing (a statement on a server still waiting),
    // reached by a jump: what was told belongs to a step long before, so
    // its last event tells where the run stands.
    const bool jumped = toldTo_ != from;
    toldFrom_ = from;
    toldTo_ = to;
    if (from >= to && to > 0 && (jumped || told_.isEmpty()))
        from = to - 1;
    Told told;
    if (restart || !narrator_ || from < fed_) {
        startOver();
        told.fromStart = true;
    }
    // A step that recorded nothing (time passed): what was told stays.
    if (from >= to && !told_.isEmpty()) {
        told.text = told_;
        return told;
    }
    for (; fed_ < from; ++fed_) narrator_->caption(events.at(fed_));
    narrator_->endStep();
    const QString caption = narrator_->narrate(events, from, to);
    fed_ = std::max(fed_, to);
    told_ = caption.isEmpty() && plain ? plain(from, to) : caption;
    told.text = told_;
    return told;
}

void StepNarrator::catchUp(const QList<TraceEvent>& events, qsizetype upTo) {
    if (!narrator_ || upTo < fed_)
        startOver();
    for (; fed_ < upTo && fed_ < events.size(); ++fed_) narrator_->caption(events.at(fed_));
    narrator_->endStep();
}

}  // namespace idem
