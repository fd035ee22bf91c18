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
    // the sequence diagram labels it (showing the payload keys `askKeys`), joined.
    static QString describe(const QList<TraceEvent>& events, qsizetype from, qsizetype to,
                            const QStringList& askKeys);
    // The payload keys the run's scenario shows on an attempt (ScenarioInfo::askKeys).
    void setAskKeys(const QStringList& askKeys) { askKeys_ = askKeys; }

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
    QStringList askKeys_;
    std::unique_ptr<Narrator> narrator_;
    qsizetype fed_ = 0;  // events the narrator has seen
    QString told_;       // the latest narrated caption, of events [toldFrom_, toldTo_)
    qsizetype toldFrom_ = -1;
    qsizetype toldTo_ = -1;
};

}  // namespace idem
