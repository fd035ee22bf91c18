// The run as a sequence diagram: one lane per actor (callers, the service,
// the database ...), one row per event, newest at the bottom, so a student
// sees who sent what, which statement ran, where a process died and which
// answer never arrived.
#pragma once

#include "sequencesteps.h"

#include <QHash>
#include <QList>
#include <QStringList>
#include <QWidget>

class QGraphicsScene;
class QGraphicsView;

namespace idem {

class Trace;
struct DiagramPalette;

class SequenceView : public QWidget {
    Q_OBJECT
public:
    // Rows drawn at most; earlier events are summed up in one note, so that a
    // run of thousands of events stays responsive.
    static constexpr qsizetype kMaxEvents = 400;

    explicit SequenceView(QWidget* parent = nullptr);

    // Draws events [0, upTo) (the last kMaxEvents of them); events in
    // [freshFrom, upTo) are this step's and drawn emphasised.
    void showTrace(const Trace& trace, qsizetype upTo, qsizetype freshFrom);
    void clear();
    // Show the set-up and the lab's own lanes (an observer): off by default.
    void setShowInternals(bool show);
    QGraphicsScene* scene() const { return scene_; }
    // Arrows drawn for fires, responses, retries and downstream calls.
    int arrowCount() const { return arrows_; }
    QStringList lanes() const { return lanes_; }
    // Every line of text drawn for the steps, as drawn (for tests: nothing cut).
    QStringList labels() const { return labels_; }
    // Every lane fits the view's width (none is off to the right).
    bool allLanesInSight() const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    struct Layout;

    void draw();
    void drawHeaders(const Layout& l, const DiagramPalette& pal);
    void drawStep(const SequenceStep& s, const Layout& l, double top, double height,
                  const DiagramPalette& pal);
    void drawArrow(const SequenceStep& s, const Layout& l, double y, const QColor& color,
                   const QFont& font);
    void drawLoop(const SequenceStep& s, const Layout& l, double y, const QColor& color,
                  const QFont& font);
    void drawBox(const SequenceStep& s, const Layout& l, double y, const QColor& color,
                 const QFont& font, const DiagramPalette& pal);
    double rowHeight(const SequenceStep& s) const;
    double labelRoom(const SequenceStep& s, const Layout& l) const;

    QGraphicsScene* scene_;
    QGraphicsView* header_;  // the lane names, kept in sight while the rows scroll
    QGraphicsView* view_;
    QList<SequenceStep> steps_;
    QStringList lanes_;
    QStringList labels_;
    qsizetype earlier_ = 0;  // events left out before the first drawn row
    bool empty_ = true;
    bool showInternals_ = false;
    int arrows_ = 0;
    int drawnWidth_ = -1;
    double lanesWidth_ = 0;             // the width the lanes took when last drawn
    QHash<QString, double> narrowest_;  // a label's least width in its lines, by font  // the
                                        // viewport width the lanes were laid out for
};

}  // namespace idem
