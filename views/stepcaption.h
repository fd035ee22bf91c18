// The line under the diagrams that says, in words, what the current step did
// ("#2 INSERT INTO pay_flow → UNIQUE violation"), and what to press next.
// The text comes from outside (setCaption), so that narrated captions can
// replace the plain description without touching the widget.
#pragma once

#include <QList>
#include <QWidget>

class QLabel;

namespace idem {

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
    // the sequence diagram labels it, joined.
    static QString describe(const QList<TraceEvent>& events, qsizetype from, qsizetype to);

private:
    QLabel* caption_;
    QLabel* hint_;
};

}  // namespace idem
