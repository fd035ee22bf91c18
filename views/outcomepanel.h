// The outcome panel: intents, attempts, effects against what was expected,
// responses by kind, the verdict in colour, and alerts as a red banner. Mid
// run it says only what is already certain.
#pragma once

#include "summary.h"

#include <QMap>
#include <QWidget>

#include <optional>
#include <utility>

class QLabel;

namespace idem {

class DrawThrottle;
class SqlConnection;
struct TraceEvent;

class OutcomePanel : public QWidget {
    Q_OBJECT
public:
    explicit OutcomePanel(QWidget* parent = nullptr);
    // final: the run has ended (the verdict is the judge's last word).
    // repeatsWrote: a repeat (an attempt after the first) has changed the
    // database; before that no count above the expected one can be a repeat's.
    void showSummary(const Summary& summary, bool final, bool repeatsWrote = true);
    void clear();
    // Other variants judged on the same input (pagination's three
    // strategies): variant id → verdict id, listed side by side at the end.
    void setAlsoJudged(const QList<QPair<QString, QString>>& verdicts);
    // The alerts' counts in the run's database at its end: key → count.
    void setAlertCountsAtEnd(const QMap<QString, qint64>& counts);
    // In Compare: what the other side's database did to its transactions
    // (`cost`, on `backend`), so that a difference between two databases
    // (a deadlock on one side only) is drawn as the difference.
    void setCounterpart(const RunCost& cost, const QString& backend);
    // Whether events [from, to) hold a repeat's write: a statement of an
    // attempt after the first that changed rows, the lab's own instruments'
    // (the scenario's internalLanes) left out.
    static bool repeatWrote(const QList<TraceEvent>& events, qsizetype from, qsizetype to,
                            const QStringList& internalLanes);
    QString verdictText() const;
    // What a screen reader says of the verdict (its accessible description).
    QString verdictDescription() const;
    QString verdictId() const { return summary_ ? toId(summary_->verdict) : QString(); }
    QString detailsText() const;
    QString alertText() const;
    bool alertVisible() const;
    // Off in presenter mode, where the stage's banner shows the verdict.
    void setVerdictVisible(bool visible);
    // Playing at "instant": a summary mid-run is drawn at most every `ms`
    // (its word-wrapped labels are measured again at each new text, up to
    // several milliseconds); the run's last summary at once. 0: every one.
    // Lifting the interval draws what waited; `offsetMs`: the first drawing
    // held back comes no sooner (DrawThrottle).
    void setRedrawInterval(int ms, int offsetMs = 0);

signals:
    // The verdict line as shown (also when hidden): for the stage's banner.
    void verdictShown(const QString& text, const QColor& background, const QColor& foreground);

protected:
    void changeEvent(QEvent* event) override;

private:
    void render();
    void renderAlerts();
    // The verdict as a screen reader says it: its name, what it means, and
    // each effect's count against the expected one.
    QString spokenVerdict(const Summary& s, const QString& name, const QString& verdict) const;

    // What the database broke or made wait, a row of its own on a server.
    QString conflictsText(const RunCost& cost) const;

    std::optional<Summary> summary_;
    std::optional<std::pair<RunCost, QString>> counterpart_;
    bool final_ = false;
    bool repeatsWrote_ = true;
    QList<QPair<QString, QString>> alsoJudged_;
    QMap<QString, qint64> alertCountsAtEnd_;
    QLabel* alert_;
    QLabel* verdict_;
    QLabel* details_;
    DrawThrottle* drawing_;  // render, at once or within the redraw interval
};

}  // namespace idem
