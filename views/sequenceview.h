// The run as a sequence diagram: one lane per actor (callers, the service,
// the database ...), one row per event, newest at the bottom, so a student
// sees who sent what, which statement ran, where a process died and which
// answer never arrived.
#pragma once

#include "sequencesteps.h"

#include <QGraphicsScene>
#include <QHash>
#include <QList>
#include <QStringList>
#include <QWidget>

#include <memory>

class QFontMetricsF;
class QGraphicsItem;
class QGraphicsSimpleTextItem;
class QGraphicsView;

namespace idem {

class LaneScene;
class Trace;
struct ScenarioInfo;
struct DiagramPalette;

class SequenceView : public QWidget {
    Q_OBJECT
public:
    // Rows drawn at most; earlier events are summed up in one note, so that a
    // run of thousands of events stays responsive.
    static constexpr qsizetype kMaxEvents = 160;
    // After a leap over more events than this (End, a long seek, a tick of
    // "instant" play), only the last this many: the rows a view holds and
    // some, drawn within a frame rather than every row the leap passed.
    // Rows added by later steps fill the rest up to kMaxEvents.
    static constexpr qsizetype kLeapEvents = 48;

    explicit SequenceView(QWidget* parent = nullptr);

    // What the scenario declares about its diagram: the order of its lanes,
    // the payload keys its attempts' arrows show, the lanes of the lab's
    // own instruments, left out unless internals are shown, and its words
    // (ScenarioInfo::lanes, ::askKeys, ::internalLanes, ::words). Applies
    // from the next drawing; a scenario's declarations live as long as the
    // program.
    void setCast(const ScenarioInfo& scenario);

    // Draws events [0, upTo) (the last kMaxEvents of them); events in
    // [freshFrom, upTo) are this step's and drawn emphasised.
    void showTrace(const Trace& trace, qsizetype upTo, qsizetype freshFrom) {
        showLast(trace, upTo, freshFrom, kMaxEvents);
    }
    // The same when events [0, previous upTo) are drawn already: adds the rows
    // of the events since (and drops those beyond kMaxEvents at the top)
    // instead of drawing every row again; falls back to showTrace when the
    // lanes or their widths must change.
    void advanceTrace(const Trace& trace, qsizetype upTo, qsizetype freshFrom);
    void clear();
    // Draws the last `events` of events [0, upTo).
    void showLast(const Trace& trace, qsizetype upTo, qsizetype freshFrom, qsizetype events);
    // Show the set-up and the lab's own lanes (an observer): off by default.
    void setShowInternals(bool show);
    // Playing at "instant": when a step needs the lanes laid out again (a
    // new lane, a wider label), only the last kLeapEvents events are drawn
    // again, as after a leap; the frame stays short. Off: all kMaxEvents.
    void setFastPlay(bool fast) { fastPlay_ = fast; }
    // The lane a lesson points at: its name framed and its lifeline on a
    // tinted band; empty: none.
    void setPointedLane(const QString& lane);
    const QString& pointedLane() const { return pointedLane_; }
    // Where the pointed lane's name is drawn, in this widget's coordinates
    // (scrolled as the rows are); empty when no lane is pointed at or drawn.
    QRect pointedLaneRect() const;
    // Where the lane names are shown, in this widget's coordinates.
    QRect laneNamesRect() const;
    QGraphicsScene* scene() const { return scene_; }
    // Arrows drawn for fires, responses, retries and downstream calls.
    int arrowCount() const { return arrows_; }
    QStringList lanes() const { return lanes_; }
    // Every line of text drawn for the steps, as drawn (for tests: nothing cut).
    QStringList labels() const { return labels_; }
    // How many of the trace's events the rows drawn so far cover.
    qsizetype drawnUpTo() const { return drawnUpTo_; }
    // Every lane fits the view's width (none is off to the right).
    bool allLanesInSight() const;
    // The rows whole in the view now, and whether the latest one is.
    int rowsInSight() const;
    bool latestRowInSight() const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    // What a screen reader calls the diagram, in the language of the moment:
    // from the start, and again at each language change.
    void nameForScreenReaders();
    // A lane's name in the window's language, as the scenario names it.
    QString laneName(const QString& lane) const;
    struct Layout;
    // One drawn row: its step as built (label unwrapped), where it is, and
    // the scene items that draw it.
    struct Row {
        SequenceStep step;
        double top = 0;
        double height = 0;
        int arrows = 0;
        QStringList lines;  // its label as drawn
        QList<QGraphicsItem*> items;
    };

    void draw();
    QRectF sceneInSight() const;  // the part of the rows' scene the view shows
    void drawHeaders(const Layout& l, const DiagramPalette& pal);
    void drawStep(const SequenceStep& s, const Layout& l, double top, double height,
                  const DiagramPalette& pal);
    void drawArrow(const SequenceStep& s, const Layout& l, double y, const QColor& color,
                   const QFont& font);
    void drawLoop(const SequenceStep& s, const Layout& l, double y, const QColor& color,
                  const QFont& font);
    void drawBox(const SequenceStep& s, const Layout& l, double y, const QColor& color,
                 const QFont& font, const DiagramPalette& pal);
    // A statement released from a lock wait: a bar on its lane from the
    // wait's row down to `until` (this row's middle).
    void drawWait(const SequenceStep& s, const Layout& l, double until, const DiagramPalette& pal);
    double rowHeight(const SequenceStep& s) const;
    // The lane spacing a step needs (its label in two or three lines).
    double laneNeed(const SequenceStep& s, const QFontMetricsF& fm, const QFontMetricsF& fmBold,
                    double lineH, int extraLines);
    // How many more lines a label may take when the lanes do not fit otherwise.
    static constexpr int kMaxExtraLines = 3;
    // Draws `row` at `top` (its label wrapped to the lanes) and records its items.
    void drawRow(Row& row, double top, qint64 lastTime, const DiagramPalette& pal);
    void removeRow(Row& row);
    // The note on earlier events, the lane lines and the scroll area after rows changed.
    void placeFrame(const DiagramPalette& pal);
    double labelRoom(const SequenceStep& s, const Layout& l) const;

    LaneScene* rowsScene_;   // the rows, with the lanes' lifelines as their background
    QGraphicsScene* scene_;  // where items are added: rowsScene_, or scratch_ while a row is drawn
    QGraphicsView* header_;  // the lane names, kept in sight while the rows scroll
    QGraphicsView* view_;
    QList<SequenceStep> steps_;
    const ScenarioInfo* scenario_ = nullptr;
    QStringList laneOrder_;
    QString pointedLane_;
    QStringList internalLanes_;
    QStringList lanes_;
    QStringList labels_;
    qsizetype earlier_ = 0;  // events left out before the first drawn row
    bool empty_ = true;
    bool showInternals_ = false;
    int arrows_ = 0;
    int drawnWidth_ = -1;
    bool pinned_ = true;     // scrolled to the newest row: stays there when the view resizes
    double lanesWidth_ = 0;  // the width the lanes took when last drawn
    std::shared_ptr<Layout> layout_;  // as the rows on screen were laid out
    QList<Row> rows_;
    QGraphicsSimpleTextItem* earlierNote_ = nullptr;
    bool fastPlay_ = false;
    QGraphicsScene scratch_;  // a row is drawn here, then its items move to scene_
    qsizetype drawnUpTo_ = 0;
    QHash<QString, double> narrowest_;  // a label's least width in its lines, by font
};

}  // namespace idem
