// The scenario's state diagram with the run drawn onto it: how often each move
// was accepted or rejected so far, where each intent's entity stands now, and
// the moves of the current step flashing green (accepted) or red (rejected).
#pragma once

#include "statetally.h"

#include <QList>
#include <QMap>
#include <QPair>
#include <QSet>
#include <QSize>
#include <QString>
#include <QWidget>

#include <memory>

class QGraphicsItem;
class QGraphicsScene;
class QGraphicsView;
class QVariantAnimation;

namespace idem {

class DrawThrottle;
class Trace;
struct DiagramPalette;
struct ScenarioInfo;
struct ScenarioWords;
struct StateMachineInfo;

class StateMachineView : public QWidget {
    Q_OBJECT
public:
    explicit StateMachineView(QWidget* parent = nullptr);
    ~StateMachineView() override;

    void setMachine(const ScenarioInfo& info, const QString& variant);
    // Draws the state as of events [0, upTo); transitions in [freshFrom, upTo)
    // are this step's and stay marked until the next call.
    void showTrace(const Trace& trace, qsizetype upTo, qsizetype freshFrom);
    // The same when events [0, previous upTo) are already drawn: applies only
    // the events since, so a step costs the same early and late in a long run.
    void advanceTrace(const Trace& trace, qsizetype upTo, qsizetype freshFrom);
    QGraphicsScene* scene() const { return scene_; }

    // False when this variant keeps no state (the view shows a note instead).
    bool hasMachine() const;
    // The state the intent's entity is in: its last accepted move; "" before any.
    QString currentState(int intent) const { return tally_.current().value(intent); }
    // Where an open transaction has moved it; "" when none has.
    QString uncommittedState(int intent) const { return tally_.uncommitted().value(intent); }
    // What the view draws: a copy may be brought up to date elsewhere (a
    // worker, over a long seek) and handed back with showTally.
    const StateTally& tally() const { return tally_; }
    void showTally(StateTally tally);
    int acceptedCount(const QString& from, const QString& to) const;
    int rejectedCount(const QString& from, const QString& to) const;
    // Moves the database accepted although the diagram forbids them.
    QList<QPair<QString, QString>> forbiddenMoves() const;
    // The colour such a move and its legend are drawn in.
    QColor forbiddenColor() const;
    // Drawn smaller when it does not fit the view (true), or at full size
    // with scroll bars (false: when zoomed in).
    void setShrinkToFit(bool shrink);
    // Alone in a large view: drawn larger than the font, up to kMaxGrowth
    // times, to fill it (a projector's whole screen).
    void setGrowToFit(bool grow);
    static constexpr double kMaxGrowth = 2.0;
    // The size of the diagram's text on screen, in pixels.
    double textPixelSize() const;
    // At most one drawing every `ms` (0: each step drawn at once). Playing
    // at "instant" the counts change every frame, faster than anyone reads
    // them; drawing the diagram again each frame costs the window a frame.
    // Meanwhile the latest moves are marked without the pulse: restarted at
    // every drawing it was a flicker, and it updated the scene every frame.
    // `offsetMs`: the first drawing held back comes no sooner (DrawThrottle).
    void setRedrawInterval(int ms, int offsetMs = 0);
    // Whether the latest step's moves are pulsing now, and the items that pulse.
    bool isPulsing() const;
    const QList<QGraphicsItem*>& pulsingItems() const { return glows_; }
    // The state a lesson points at, drawn with a ring; empty: none.
    void setPointedState(const QString& state);
    const QString& pointedState() const { return pointed_; }
    // How wide the view must be to draw the diagram at full size.
    int fullSizeWidth() const { return fullSizeWidth_; }

signals:
    void fullSizeWidthChanged();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    // What a screen reader calls the diagram, in the language of the moment:
    // from the start, and again at each language change.
    void nameForScreenReaders();
    using Move = StateTally::Move;
    struct NodeBox;

    void clearScene();
    void rebuild();
    void drawNow();                        // rebuild, and the latest step's moves pulse
    void draw(const DiagramPalette& pal);  // the machine, onto an empty scene
    double fitScale() const;               // how much fit() shrinks the scene
    QRectF drawnRect() const;              // the scene's items but the glows
    void drawNote(const DiagramPalette& pal);
    enum class EdgeKind { Allowed, Forbidden, Refused };
    void drawEdge(const Move& move, const QMap<QString, NodeBox>& boxes, EdgeKind kind,
                  const DiagramPalette& pal);
    QList<QGraphicsItem*> drawLegend(QPointF at, const DiagramPalette& pal);
    void tuck(const QList<QGraphicsItem*>& items, const QList<QPointF>& corners, QPointF outside);
    void drawCount(const Move& move, QPointF at, const DiagramPalette& pal);
    void drawEdgeName(const Move& move, QPointF from, QPointF out, bool beyondCount,
                      const DiagramPalette& pal);
    void drawTokens(const NodeBox& box, const QList<int>& intents, const QList<int>& uncommitted,
                    const DiagramPalette& pal);
    void fit();

    QGraphicsScene* scene_;
    QGraphicsView* view_;
    QSize laidOutFor_;
    QString arrangedFor_;      // the room sideBySide_ was chosen for
    bool sideBySide_ = false;  // a state's two names on one line
    int fullSizeWidth_ = 0;
    bool shrinkToFit_ = true;
    double maxScale_ = 1.0;  // how much larger than its font the diagram may be drawn
    QVariantAnimation* pulse_;
    DrawThrottle* drawing_;        // drawNow, at once or within the redraw interval
    QList<QGraphicsItem*> glows_;  // this step's moves, faded in and out by pulse_
    int redrawIntervalMs_ = 0;

    // Held by pointer: scenario.h brings C++20 headers that moc cannot parse.
    std::unique_ptr<StateMachineInfo> machine_;
    const ScenarioWords* words_;  // the scenario's, whose names last as long as the program
    QString variant_;
    QString pointed_;
    StateTally tally_;
};

}  // namespace idem
