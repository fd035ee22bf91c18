// The lesson on screen: where the class is (lesson, frame k of n), what the
// teacher says at this frame (large, for the back row), where to look, and a
// prediction with its choices, then the answer the run gave. The words come
// from the lesson file; the answer from the run (LessonPlayer).
#pragma once

#include <QWidget>

class QLabel;
class QScrollArea;

namespace idem {

struct Lesson;
struct LessonHighlight;
struct MissingServer;

class LessonPanel : public QWidget {
    Q_OBJECT
public:
    explicit LessonPanel(QWidget* parent = nullptr);

    // Shows `frame` of `lesson` in `lang`. answer: empty while the question
    // waits for the class, else the run's value (the matching choice is
    // marked).
    // notice: what the frame says of its run (its server is missing: the
    // run recorded with the lesson plays, or none). hasRun: whether a run
    // answers the question (false: Page Down only goes on).
    void showFrame(const Lesson& lesson, int frame, const QString& lang, const QString& answer,
                   const QString& notice = {}, bool hasRun = true);
    void clear();

    QString narration() const;
    QString question() const;    // prompt and choices as shown; empty without one
    QString answerText() const;  // empty until revealed
    QString position() const;    // "Frame 3 / 7"
    QString lookAt() const;      // "Look at: table pay_flow · lane database"
    QString notice() const;      // empty unless the frame's server is missing

    // Where frame `frame` of `lesson` points, in the installed language
    // ("Look at: table pay_flow · lane “database”"), its lanes named as the
    // frame's scenario names them; empty when it points nowhere.
    static QString lookAtText(const Lesson& lesson, int frame);
    // What a frame on a server says where that server is not installed: the
    // database it needs and the Debian package to install.
    static QString missingServerText(const MissingServer& missing);
    // ... when the frame plays the run recorded with the lesson instead.
    static QString recordedRunText(const MissingServer& missing);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void showInScroll(QLabel* label);

    QLabel* lesson_;
    QLabel* position_;
    QLabel* title_;
    QScrollArea* scroll_;  // the frame's words under the pinned title
    QLabel* narration_;
    QLabel* lookAt_;
    QLabel* notice_;
    QLabel* question_;
    QLabel* answer_;
    QLabel* hint_;
};

}  // namespace idem
