// The window's lessons: the first one offered to a newcomer, one chosen
// from the bundled ones or opened from a file (its runs checked in a worker
// first), started at a frame; and the outcome and the verdict withheld while
// a lesson or Predict first waits for the class's prediction.
#include "mainwindow.h"

#include "configcheck.h"
#include "explanationview.h"
#include "lessonbook.h"
#include "lessonplayer.h"
#include "outcomepanel.h"
#include "runcontroller.h"
#include "stageheader.h"
#include "stagelayout.h"
#include "welcomecard.h"
#include "windowexports.h"

#include <QDockWidget>
#include <QFileDialog>
#include <QInputDialog>
#include <QMessageBox>
#include <QSplitter>
#include <QStatusBar>

namespace idem {

void MainWindow::offerFirstLesson() {
    auto* offer = findChild<WelcomeCard*>(QStringLiteral("firstLessonOffer"));
    if (!offer) {
        offer = new WelcomeCard(this, live_);
        offer->setObjectName(QStringLiteral("firstLessonOffer"));
        connect(offer, &WelcomeCard::started, this, [this] {
            QString error;
            if (!startLesson(QStringLiteral("first-five-minutes"), 0, &error))
                showError(tr("Cannot open the lesson"), error);
        });
    }
    offer->setTexts(tr("Welcome to Idempotency Lab"),
                    tr("New here? The five-minute lesson sends a double click "
                       "(three requests) to an order service, shows the three "
                       "orders they make, then the dedup table whose unique key "
                       "stops the repeats. Page Down moves on, Page Up goes "
                       "back.\n\nAll lessons are in Guided lessons → Choose a lesson… "
                       "(F2)."),
                    tr("&Start the five-minute lesson"), tr("&Not now"));
    offer->offer();
}

void MainWindow::showVerdict() {
    if (outcomeWithheld_) {
        // "Predict" where a question is asked: by View → Predict first, or
        // by the lesson's frame (a frame without one only hides the verdict).
        const bool asks = !lessons_ || !lessons_->isActive() ||
                          lessons_->lesson().frames.at(lessons_->frame()).question.has_value();
        header_->setVerdict(
            asks ? tr("Predict first: the verdict is hidden until the lesson shows it")
                 : tr("The verdict is hidden until the lesson shows it"),
            palette().color(QPalette::AlternateBase), palette().color(QPalette::WindowText));
        header_->setVerdictDescription({});
        return;
    }
    header_->setVerdict(verdictText_, verdictBackground_, verdictForeground_);
    header_->setVerdictDescription(outcome_->verdictDescription());
}

void MainWindow::setOutcomeWithheld(bool withheld) {
    outcomeWithheld_ = withheld;
    const bool lesson = lessons_ && lessons_->isActive();
    auto* lessonScroll = findChild<QWidget*>(QStringLiteral("lessonScroll"));
    auto* outcomeScroll = findChild<QWidget*>(QStringLiteral("outcomeScroll"));
    auto* right = findChild<QSplitter*>(QStringLiteral("rightSplitter"));
    // In a lesson the frame's narration explains; the scenario's text waits.
    lessonScroll->setVisible(lesson);
    outcomeScroll->setVisible(!withheld);
    explanation_->setVisible(!lesson);
    if (lesson) {
        if (auto* dock = findChild<QDockWidget*>(QStringLiteral("outcomeDock")))
            dock->show();
        const int total = std::max(right->height(), 400);
        const int outcome =
            withheld ? 0 : std::min(outcome_->sizeHint().height() + 8, total * 40 / 100);
        right->setSizes({total - outcome, outcome, 0});
    }
    stage_->setLessonShown(lesson);
    showVerdict();
}

bool MainWindow::startLesson(const QString& idOrPath, int frame, QString* error,
                             RunFailure* failure) {
    Lesson lesson;
    if (const Lesson* bundled = findLesson(idOrPath)) {
        lesson = *bundled;
    } else if (!readLessonFile(idOrPath, &lesson, error)) {
        return false;
    }
    if (frame < 0 || frame >= lesson.frames.size()) {
        *error = tr("The lesson %1 has frames 1 to %2.").arg(lesson.id).arg(lesson.frames.size());
        return false;
    }
    showTab(live_);
    // A lesson chosen answers the first start's offer of one.
    if (auto* offer = findChild<WelcomeCard*>(QStringLiteral("firstLessonOffer")))
        offer->hide();
    lessons_->start(lesson, frame);
    if (!lessons_->fireError().isEmpty()) {
        *error = lessons_->fireError();
        if (failure)
            *failure = lessons_->fireFailure();
        return false;
    }
    return true;
}

void MainWindow::chooseLesson() {
    const QList<Lesson>& lessons = bundledLessons();
    QStringList items;
    for (const Lesson& l : lessons) {
        items << tr("%1 — %2 frames, %3 predictions")
                     .arg(l.title.in(language_))
                     .arg(l.frames.size())
                     .arg(l.questionCount());
    }
    bool ok = false;
    const QString item =
        QInputDialog::getItem(this, tr("Lessons"), tr("Choose a lesson:"), items, 0, false, &ok);
    if (!ok)
        return;
    const Lesson& chosen = lessons.at(items.indexOf(item));
    QString error;
    if (!startLesson(chosen.id, 0, &error))
        showError(tr("Cannot open the lesson"), error);
}

void MainWindow::openLessonFile() {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open lesson"), QString(), tr("Lessons (*.json)"));
    if (!path.isEmpty())
        openLessonFileAt(path);
}

void MainWindow::openLessonFileAt(const QString& path) {
    exports_->protect(path);
    QString error;
    Lesson lesson;
    if (!readLessonFile(path, &lesson, &error)) {
        showError(tr("Cannot open the lesson"), error);
        return;
    }
    // Every frame's run is estimated before any of them starts, as a fired
    // run is: above the limit the room is asked first.
    if (const std::optional<CostlyFrame> costly = firstCostlyFrame(lesson)) {
        const QLocale locale;
        const QString title = lesson.frames.at(costly->frame).title.in(language_);
        constexpr qint64 mb = 1024 * 1024;
        QString text;
        if (costly->together > 0) {
            text = tr("Up to frame %1 (%2), this lesson's runs come to about %3 SQL statements, "
                      "whose steps kept in memory would take about %4 MB, above the limit of "
                      "%5 MB for a lesson's runs together. Checking and playing it may take "
                      "minutes; Esc stops it. Open it anyway?")
                       .arg(costly->frame + 1)
                       .arg(title, locale.toString(costly->together),
                            locale.toString(costly->keptBytes() / mb),
                            locale.toString(kMaxKeptBytes / mb));
        } else if (costly->cost.statements() <= kMaxEstimatedStatements) {
            text = tr("Frame %1 (%2) of this lesson loads a run estimated at about %3 SQL "
                      "statements, whose steps kept in memory would take about %4 MB, above the "
                      "limit of %5 MB. Checking and playing it may take minutes; Esc stops it. "
                      "Open it anyway?")
                       .arg(costly->frame + 1)
                       .arg(title, locale.toString(costly->cost.statements()),
                            locale.toString(costly->keptBytes() / mb),
                            locale.toString(kMaxKeptBytes / mb));
        } else {
            text = tr("Frame %1 (%2) of this lesson loads a run estimated at about %3 SQL "
                      "statements, above the limit of %4. Checking and playing it may take "
                      "minutes; Esc stops it. Open it anyway?")
                       .arg(costly->frame + 1)
                       .arg(title, locale.toString(costly->cost.statements()),
                            locale.toString(kMaxEstimatedStatements));
        }
        QMessageBox box(QMessageBox::Question, tr("A very large lesson"), text,
                        QMessageBox::Yes | QMessageBox::No, this);
        box.setObjectName(QStringLiteral("largeLessonQuestion"));
        box.setDefaultButton(QMessageBox::No);
        if (box.exec() != QMessageBox::Yes) {
            messages_->showMessage(tr("Not opened: none of the lesson's runs was started."));
            return;
        }
    }
    // Checked in a worker: the window keeps painting while the runs go.
    jobs_->cancelNow();
    auto problems = std::make_shared<QStringList>();
    jobs_->start(
        tr("Checking the lesson %1").arg(lesson.id),
        [lesson, problems](RunController::Progress& p) {
            p.total = lesson.frames.size();
            for (int i = 0; i < lesson.frames.size() && !p.cancel; ++i) {
                const FrameCheck frame = checkFrame(lesson, i, {}, &p.cancel);
                *problems << frame.problems;
                if (!frame.failure.isEmpty())
                    *problems << frame.failure;
                p.done = i + 1;
            }
        },
        [this, lesson, problems](bool cancelled) {
            if (cancelled) {
                messages_->showMessage(tr("Stopped: the lesson was not opened."));
                return;
            }
            if (!problems->isEmpty()) {
                showError(tr("Cannot open the lesson"), problems->join(QLatin1Char('\n')));
                return;
            }
            showTab(live_);
            lessons_->start(lesson, 0);
        });
}

}  // namespace idem
