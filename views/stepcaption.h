// The line under the diagrams that says, in words, what the current step did
// ("#2 INSERT INTO pay_flow → UNIQUE violation"), and what to press next.
// The text comes from outside (setCaption), so that narrated captions can
// replace the plain description without touching the widget.
#pragma once

#include <QList>
#include <QWidget>

#include <memory>

class QLabel;

namespace idem {

class LabelHolder;
class Narrator;
struct ScenarioInfo;
struct TraceEvent;

class StepCaption : public QWidget {
    Q_OBJECT
public:
    explicit StepCaption(QWidget* parent = nullptr);
    ~StepCaption() override;
    // caption: what happened; hint: what to press (may be empty).
    void setCaption(const QString& caption, const QString& hint = {});
    QString caption() const;
    QString hint() const;

    // A plain description of events [from, to) of a run: each one's words as
    // the sequence diagram labels it (in the words of `scenario`, null:
    // none), joined.
    static QString describe(const QList<TraceEvent>& events, qsizetype from, qsizetype to,
                            const ScenarioInfo* scenario);
    // The run's scenario: its words (notes, actors, guards) and the payload
    // keys it shows on an attempt. A scenario's declarations live as long
    // as the program.
    void setScenario(const ScenarioInfo* scenario) { scenario_ = scenario; }

    // The narrated caption of the step of events [from, to) of a run with
    // `intents` intents: what happened and why it matters. The narrator
    // remembers what it was told; `restart` (a new run, a rewind) makes it
    // start over, and events it has not seen before `from` (a jump) are fed
    // first.
    QString narrate(const QList<TraceEvent>& events, qsizetype from, qsizetype to, int intents,
                    bool restart);
    // Feeds the narrator events [its last, upTo) without telling them, so that
    // the next narrate from upTo is quick. A long seek does this in its
    // worker, while nothing else uses the caption's narrator.
    void catchUp(const QList<TraceEvent>& events, qsizetype upTo, int intents);

private:
    QLabel* caption_;
    LabelHolder* captionRoom_;  // holds caption_ at the height of its tallest text
    QLabel* hint_;
    const ScenarioInfo* scenario_ = nullptr;
    std::unique_ptr<Narrator> narrator_;
    qsizetype fed_ = 0;  // events the narrator has seen
    QString told_;       // the latest narrated caption, of events [toldFrom_, toldTo_)
    qsizetype toldFrom_ = -1;
    qsizetype toldTo_ = -1;
};

}  // namespace idem
