#include "lessonpanel.h"

#include "lesson.h"
#include "lessonbook.h"
#include "registry.h"
#include "relativefont.h"
#include "serverinstall.h"

#include <QEvent>
#include <QLabel>
#include <QPointer>
#include <QScrollArea>
#include <QScrollBar>
#include <QTimer>
#include <QVBoxLayout>

namespace idem {

namespace {

QLabel* wrapped(QWidget* parent) {
    auto* label = new QLabel(parent);
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    return label;
}

}  // namespace

LessonPanel::LessonPanel(QWidget* parent)
    : QWidget(parent),
      lesson_(wrapped(this)),
      position_(new QLabel(this)),
      title_(wrapped(this)),
      scroll_(new QScrollArea(this)),
      narration_(wrapped(this)),
      lookAt_(wrapped(this)),
      notice_(wrapped(this)),
      question_(wrapped(this)),
      answer_(wrapped(this)),
      hint_(wrapped(this)) {
    setObjectName(QStringLiteral("lessonPanel"));
    title_->setObjectName(QStringLiteral("lessonTitle"));
    scroll_->setObjectName(QStringLiteral("lessonWords"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 6, 8, 6);
    layout->setSpacing(8);
    lesson_->setForegroundRole(QPalette::PlaceholderText);
    position_->setForegroundRole(QPalette::PlaceholderText);
    setRelativeFont(title_, 1.2, true);
    setRelativeFont(narration_, 1.15);
    setRelativeFont(question_, 1.1, true);
    setRelativeFont(answer_, 1.1, true);
    setRelativeFont(notice_, 1.1, true);
    notice_->setObjectName(QStringLiteral("lessonNotice"));
    hint_->setForegroundRole(QPalette::PlaceholderText);
    // Where the class is and the frame's title stay pinned; what the frame
    // says scrolls under them when it is longer than the room.
    layout->addWidget(lesson_);
    layout->addWidget(position_);
    layout->addWidget(title_);
    auto* words = new QWidget(scroll_);
    auto* wordsLayout = new QVBoxLayout(words);
    wordsLayout->setContentsMargins(0, 0, 0, 0);
    wordsLayout->setSpacing(8);
    // The question and its answer before a notice of how the run is played
    // (a recording where the server is missing): the class reads them first.
    for (QLabel* label : {narration_, lookAt_, question_, answer_, notice_})
        wordsLayout->addWidget(label);
    wordsLayout->addStretch(1);
    scroll_->setWidget(words);
    scroll_->setWidgetResizable(true);
    scroll_->setFrameShape(QFrame::NoFrame);
    scroll_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    layout->addWidget(scroll_, 1);
    layout->addWidget(hint_);
    clear();
    retranslate();
}

void LessonPanel::clear() {
    for (QLabel* l : {lesson_, position_, title_, narration_, lookAt_, notice_, question_, answer_})
        l->clear();
    lookAt_->hide();
    notice_->hide();
    question_->hide();
    answer_->hide();
}

void LessonPanel::showFrame(const Lesson& lesson, int index, const QString& lang,
                            const QString& answer, const QString& notice, bool hasRun) {
    const LessonFrame& frame = lesson.frames.at(index);
    lesson_->setText(lesson.title.in(lang));
    position_->setText(tr("Frame %1 / %2").arg(index + 1).arg(lesson.frames.size()));
    title_->setText(frame.title.in(lang));
    narration_->setText(frame.narration.in(lang));
    scroll_->verticalScrollBar()->setValue(0);

    lookAt_->setText(lookAtText(lesson, index));
    lookAt_->setVisible(!lookAt_->text().isEmpty());
    notice_->setText(notice);
    // Under the narration, whose first lines stay in sight: the notice says
    // how the run is played, not what the frame teaches.
    notice_->setVisible(!notice.isEmpty());

    if (!frame.question) {
        question_->hide();
        answer_->hide();
        question_->clear();
        answer_->clear();
        hint_->setText(tr("Page Down: next frame · Page Up: back · Space: play this frame again"));
        setAccessibleDescription(narration_->text() +
                                 (notice.isEmpty() ? QString() : QLatin1Char('\n') + notice));
        return;
    }
    const LessonQuestion& q = *frame.question;
    QStringList lines{tr("Predict: %1").arg(q.prompt.in(lang))};
    for (int i = 0; i < q.choices.size(); ++i) {
        const bool right = !answer.isEmpty() && q.choices.at(i).value == answer;
        lines << QStringLiteral("%1 %2. %3")
                     .arg(right ? QStringLiteral("✔") : QStringLiteral("  "))
                     .arg(QChar(u'A' + i))
                     .arg(q.choices.at(i).label.in(lang));
    }
    question_->setText(lines.join(QLatin1Char('\n')));
    question_->show();
    if (!hasRun) {
        answer_->clear();
        answer_->hide();
        hint_->setText(tr("Page Down: next frame · Page Up: back · Space: play this frame again"));
    } else if (answer.isEmpty()) {
        answer_->clear();
        answer_->hide();
        hint_->setText(tr("Let the class answer, then Page Down reveals what the run did"));
    } else {
        QString text = tr("The run says: %1").arg(lessonAnswerLabel(q, answer, lang));
        if (!q.why.in(lang).isEmpty())
            text += QLatin1Char('\n') + q.why.in(lang);
        answer_->setText(text);
        answer_->show();
        showInScroll(answer_);
        hint_->setText(tr("Page Down: next frame · Page Up: back · Space: play this frame again"));
    }
    setAccessibleDescription(narration_->text() + QLatin1Char('\n') +
                             (notice.isEmpty() ? QString() : notice + QLatin1Char('\n')) +
                             question_->text());
}

// A revealed answer or a notice under a long narration is what the room
// looks for: the words scroll to it once laid out (the title stays).
void LessonPanel::showInScroll(QLabel* label) {
    QTimer::singleShot(0, label, [scroll = QPointer<QScrollArea>(scroll_), label] {
        if (scroll && label->isVisible())
            scroll->ensureWidgetVisible(label, 0, 8);
    });
}

QString LessonPanel::lookAtText(const Lesson& lesson, int frame) {
    const LessonHighlight& highlight = lesson.frames.at(frame).highlight;
    const std::optional<RunConfig> config = frameConfig(lesson, frame);
    const Scenario* scenario = config ? findScenario(config->scenario) : nullptr;
    const ScenarioWords& words = scenario ? scenario->info().words : ScenarioWords::none();
    QStringList look;
    if (!highlight.table.isEmpty())
        look << tr("table %1").arg(highlight.table);
    if (!highlight.state.isEmpty())
        look << tr("state %1").arg(highlight.state);
    if (!highlight.lane.isEmpty())
        look << tr("lane “%1”").arg(words.actorName(highlight.lane));
    if (highlight.locks)
        look << tr("the Locks view");
    if (highlight.sqlLog)
        look << tr("the SQL log");
    return look.isEmpty() ? QString() : tr("Look at: %1").arg(look.join(QStringLiteral(" · ")));
}

QString LessonPanel::missingServerText(const MissingServer& missing) {
    return tr("This frame runs on %1, which is not installed on this computer (Debian package "
              "%2), so its run is not shown. Page Down goes on with the lesson.")
        .arg(backendName(missing.backend), missing.package);
}

QString LessonPanel::recordedRunText(const MissingServer& missing) {
    return tr("%1 is not installed on this computer (Debian package %2): this frame plays the "
              "run recorded on %1 with the lesson, the same statements, waits and answers.")
        .arg(backendName(missing.backend), missing.package);
}

QString LessonPanel::narration() const {
    return narration_->text();
}

QString LessonPanel::question() const {
    return question_->isVisibleTo(this) ? question_->text() : QString();
}

QString LessonPanel::answerText() const {
    return answer_->isVisibleTo(this) ? answer_->text() : QString();
}

QString LessonPanel::position() const {
    return position_->text();
}

QString LessonPanel::lookAt() const {
    return lookAt_->text();
}

QString LessonPanel::notice() const {
    return notice_->isVisibleTo(this) ? notice_->text() : QString();
}

void LessonPanel::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslate();
}

void LessonPanel::retranslate() {
    setAccessibleName(tr("Lesson"));
    scroll_->setAccessibleName(tr("What the frame says"));
}

}  // namespace idem
