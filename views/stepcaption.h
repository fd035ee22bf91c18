// The line under the diagrams that says, in words, what the current step did
// ("#2 INSERT INTO pay_flow → UNIQUE violation"), and what to press next.
// The text comes from outside (setCaption): the run's StepNarrator tells it,
// or describe() when no caption says the step.
#pragma once

#include <QList>
#include <QWidget>

class QLabel;

namespace idem {

class LabelHolder;
struct ScenarioInfo;
struct TraceEvent;

class StepCaption : public QWidget {
    Q_OBJECT
public:
    explicit StepCaption(QWidget* parent = nullptr);
    // caption: what happened; hint: what to press (may be empty).
    void setCaption(const QString& caption, const QString& hint = {});
    QString caption() const;
    QString hint() const;

    // A plain description of events [from, to) of a run: each one's words as
    // the sequence diagram labels it (in the words of `scenario`, null:
    // none), joined.
    static QString describe(const QList<TraceEvent>& events, qsizetype from, qsizetype to,
                            const ScenarioInfo* scenario);
    // The captions are told from the run's start again (StepNarrator): the
    // caption's room, held at the height of its tallest text, starts afresh.
    void startOver();

private:
    QLabel* caption_;
    LabelHolder* captionRoom_;  // holds caption_ at the height of its tallest text
    QLabel* hint_;
};

}  // namespace idem
