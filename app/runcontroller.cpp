#include "runcontroller.h"

#include "background.h"

#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>
#include <QTimer>

namespace idem {

namespace {

constexpr int kPollMs = 100;
// A job shorter than this never shows its bar: no flicker on ordinary runs.
constexpr int kQuietPolls = 2;
// A finished job's bar stays this long: a glimpse of it full, and its going
// (what lay under it is painted again) not in the same frame as the views
// taking in what the job did.
constexpr int kLingerMs = 250;

}  // namespace

RunController::RunController(QStatusBar* bar, QObject* parent)
    : QObject(parent),
      status_(bar),
      label_(new QLabel(bar)),
      bar_(new QProgressBar(bar)),
      cancelButton_(new QPushButton(bar)),
      poll_(new QTimer(this)),
      linger_(new QTimer(this)) {
    label_->setObjectName(QStringLiteral("jobLabel"));
    bar_->setObjectName(QStringLiteral("jobProgress"));
    cancelButton_->setObjectName(QStringLiteral("jobCancel"));
    bar_->setMaximumWidth(bar->fontMetrics().averageCharWidth() * 30);
    bar_->setTextVisible(false);
    cancelButton_->setFocusPolicy(Qt::NoFocus);  // Escape is the key; the button is for the mouse
    bar->addPermanentWidget(label_);
    bar->addPermanentWidget(bar_);
    bar->addPermanentWidget(cancelButton_);
    for (QWidget* w : {static_cast<QWidget*>(label_), static_cast<QWidget*>(bar_),
                       static_cast<QWidget*>(cancelButton_)})
        w->hide();
    retranslate();
    // The bar (it floats over the stage) is hidden while nothing runs and
    // nothing is said.
    bar->hide();
    connect(bar, &QStatusBar::messageChanged, this, &RunController::updateVisibility);
    poll_->setInterval(kPollMs);
    connect(poll_, &QTimer::timeout, this, &RunController::showProgress);
    linger_->setSingleShot(true);
    linger_->setInterval(kLingerMs);
    connect(linger_, &QTimer::timeout, this, &RunController::hideProgress);
    connect(cancelButton_, &QPushButton::clicked, this, &RunController::cancel);
    // Delivered on this thread once the worker has ended; a job delivered
    // early (finishNow) or dropped has no worker left to deliver.
    connect(this, &RunController::workerEnded, this, [this](quint64 generation) {
        if (generation == generation_ && worker_.joinable())
            deliver(true);
    });
}

RunController::~RunController() {
    // The status bar may be gone already: only the worker is seen to.
    dropJob();
}

bool RunController::start(const QString& what, Work work, Done done) {
    if (worker_.joinable())
        return false;
    progress_.done = 0;
    progress_.total = 0;
    progress_.cancel = false;
    progress_.setNote({});
    work_ = std::move(work);
    done_ = std::move(done);
    what_ = what;
    polls_ = 0;
    const quint64 generation = ++generation_;
    // The worker reads only what it is given and the Progress; it reports
    // its end with a signal, which Qt queues to this thread.
    worker_ = std::thread([this, generation, work = &work_] {
        becomeBackground();
        (*work)(progress_);
        emit workerEnded(generation, QPrivateSignal());
    });
    // What was said about the last job gives way to this one.
    status_->clearMessage();
    if (linger_->isActive()) {  // the bar still showing the last job shows this one
        linger_->stop();
        label_->setText(what_);
        bar_->setRange(0, 0);
        cancelButton_->setText(tr("Cancel (Esc)"));
        cancelButton_->setEnabled(true);
    }
    poll_->start();
    emit busyChanged(true);
    return true;
}

void RunController::retranslate() {
    label_->setAccessibleName(tr("Work in progress"));
    bar_->setAccessibleName(tr("Progress of the work in progress"));
    cancelButton_->setText(tr("Cancel (Esc)"));
    cancelButton_->setAccessibleName(tr("Stop the work in progress"));
}

void RunController::showProgress() {
    if (!worker_.joinable() || ++polls_ < kQuietPolls)
        return;
    const qint64 total = progress_.total.load();
    const qint64 done = progress_.done.load();
    if (total > 0) {
        // QProgressBar counts in int: scale to per mille.
        bar_->setRange(0, 1000);
        bar_->setValue(int(std::clamp<qint64>(done * 1000 / total, 0, 1000)));
    } else {
        bar_->setRange(0, 0);
    }
    const QString note = progress_.note();
    QString text = done > 0 ? tr("%1 · %2 steps").arg(what_, QLocale().toString(done)) : what_;
    if (!note.isEmpty())
        text += QStringLiteral(" · ") + note;
    label_->setText(text);
    cancelButton_->setText(progress_.cancel ? tr("Stopping…") : tr("Cancel (Esc)"));
    cancelButton_->setEnabled(!progress_.cancel);
    for (QWidget* w : {static_cast<QWidget*>(label_), static_cast<QWidget*>(bar_),
                       static_cast<QWidget*>(cancelButton_)})
        w->show();
    updateVisibility();
}

void RunController::updateVisibility() {
    status_->setVisible(bar_->isVisibleTo(status_) || !status_->currentMessage().isEmpty());
}

void RunController::cancel() {
    if (!worker_.joinable())
        return;
    progress_.cancel = true;
    cancelButton_->setText(tr("Stopping…"));
    cancelButton_->setEnabled(false);
}

void RunController::deliver(bool linger) {
    ++generation_;
    worker_.join();
    work_ = nullptr;
    poll_->stop();
    if (!linger || !bar_->isVisibleTo(status_)) {
        hideProgress();
    } else {
        if (bar_->maximum() > 0 && !progress_.cancel)
            bar_->setValue(bar_->maximum());
        cancelButton_->setEnabled(false);
        linger_->start();
    }
    Done done = std::move(done_);
    done_ = nullptr;
    emit busyChanged(false);
    if (done)
        done(progress_.cancel.load());
}

void RunController::finishNow() {
    if (!worker_.joinable())
        return;
    finishingNow_ = true;
    deliver(false);
    finishingNow_ = false;
}

void RunController::hideProgress() {
    linger_->stop();
    for (QWidget* w : {static_cast<QWidget*>(label_), static_cast<QWidget*>(bar_),
                       static_cast<QWidget*>(cancelButton_)})
        w->hide();
    updateVisibility();
}

void RunController::cancelNow() {
    cancel();
    finishNow();
}

void RunController::abandon() {
    if (!worker_.joinable())
        return;
    dropJob();
    poll_->stop();
    hideProgress();
    emit busyChanged(false);
}

void RunController::dropJob() {
    if (!worker_.joinable())
        return;
    ++generation_;  // its workerEnded, if queued already, is not delivered
    progress_.cancel = true;
    worker_.join();
    work_ = nullptr;  // and with it the job, and what it held
    done_ = nullptr;
}

}  // namespace idem
