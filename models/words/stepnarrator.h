// The narration of a run played step by step, the caption under the
// diagrams: a Narrator fed each event once, in order, that starts over when
// the run does and remembers the caption it told last. It belongs to the run
// it narrates (PlayedRun), so that a worker's job that holds the run can
// bring it up to date, and the window tells what it says.
#pragma once

#include <QList>
#include <QString>

#include <functional>
#include <memory>

namespace idem {

class Narrator;
struct ScenarioWords;
struct TraceEvent;

class StepNarrator {
public:
    // intents: how many intents the run has; words: its scenario's, which
    // live as long as the program (Narrator's).
    explicit StepNarrator(int intents = 1, const ScenarioWords* words = nullptr);
    ~StepNarrator();
    StepNarrator(StepNarrator&&) noexcept;
    StepNarrator& operator=(StepNarrator&&) noexcept;

    // A plain description of events [from, to), for a step no caption
    // tells (the window's: the sequence diagram's labels).
    using Plain = std::function<QString(qsizetype from, qsizetype to)>;
    struct Told {
        QString text;
        bool fromStart = false;  // told from the run's start again (restart, a rewind)
    };
    // The caption of the step of events [from, to) of the run: what happened
    // and why it matters. The narrator remembers what it was told;
    // `restart` (a new run, views drawn again) makes it start over, and
    // events it has not seen before `from` (a jump) are fed first.
    Told narrate(const QList<TraceEvent>& events, qsizetype from, qsizetype to, bool restart,
                 const Plain& plain);
    // Feeds the narrator events [its last, upTo) without telling them, so
    // that the next narrate from upTo is quick (a long seek's worker does).
    void catchUp(const QList<TraceEvent>& events, qsizetype upTo);

private:
    void startOver();

    int intents_;
    const ScenarioWords* words_;
    std::unique_ptr<Narrator> narrator_;
    qsizetype fed_ = 0;  // events the narrator has seen
    QString told_;       // the latest caption, of events [toldFrom_, toldTo_)
    qsizetype toldFrom_ = -1;
    qsizetype toldTo_ = -1;
};

}  // namespace idem
