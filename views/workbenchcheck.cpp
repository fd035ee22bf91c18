// The workbench's Check: the attack in a worker thread, its progress, and
// what it found, in the table, in words and on the ladder; and the starter a
// lesson puts in the editor, never saved over the student's own handler.
#include "attack.h"
#include "backendnames.h"
#include "challenge.h"
#include "challengescenario.h"
#include "firepanelrows.h"
#include "handlereditor.h"
#include "handlerrun.h"
#include "names.h"
#include "privateredis.h"
#include "serverinstall.h"
#include "workbenchview.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTableWidget>
#include <QTextCursor>

namespace idem {

namespace {

AttackOptions optionsFor(const QString& backend, const QString& isolation, bool redis,
                         int preemptions, const QString& traceDir) {
    AttackOptions options;
    options.backend = backend;
    options.isolation = isolation;
    options.redis = redis ? QStringLiteral("private") : QStringLiteral("off");
    options.preemptions = preemptions;
    // No folder (the handler could not be saved): no trace to step.
    if (!traceDir.isEmpty() && QDir().mkpath(traceDir))
        options.traceDir = traceDir;
    return options;
}

// A combo box as wide as its longest item where there is room, narrower
// (its text cut) where there is not: the row beside Check must fit a
// projector's width in Chinese with the fire panel unfolded beside it.
void fitToItems(QComboBox* box) {
    box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    const int whole = box->sizeHint().width();
    box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box->setMinimumContentsLength(1);
    box->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    box->setMaximumWidth(whole);
}

}  // namespace

QString WorkbenchView::checkedOn(const AttackResult* result) const {
    const QString backend = result ? result->backend : checkingBackend_;
    const bool redis = result ? result->redis != QLatin1String("off") : checkingRedis_;
    return redis ? tr("%1 + Redis").arg(backendName(backend)) : backendName(backend);
}

void WorkbenchView::updateRedisChoice() {
    const ChallengeScenario* s = findChallengeScenario(challenge_);
    const bool hasForm = s && s->info().variants.value(0).redis;
    const QString missing = PrivateRedis::missingPackage();
    redis_->setText(tr("Redis"));
    redis_->setAccessibleName(tr("Check with a private Redis"));
    redis_->setEnabled(hasForm && missing.isEmpty());
    if (!redis_->isEnabled())
        redis_->setChecked(false);
    redis_->setToolTip(
        !hasForm ? tr("This challenge keeps nothing in Redis.")
        : !missing.isEmpty()
            ? tr("Redis is not installed (Debian package %1): %2")
                  .arg(missing, installCommand(missing))
            : tr("Checks with a private Redis: the handler may yield redis.call(...), and a "
                 "consumer's messages come from a Redis stream"));
}

QString WorkbenchView::tracesFolder() const {
    return folder_.isEmpty() ? QString() : QDir(folder_).filePath(QStringLiteral("traces"));
}

void WorkbenchView::check() {
    const Challenge* c = challenge();
    if (!c || isChecking())
        return;
    // The file and the check see the same text (but a lesson's starter is
    // not written over the student's own handler).
    QString error;
    if (!starterOverOwnFile() && !save(&error))
        emit message(error);
    parseNow();
    if (editor_->problemLine() > 0) {
        emit message(tr("Line %1 does not compile: fix it first").arg(editor_->problemLine()));
        editor_->setFocus();
        return;
    }
    checkingBackend_ = backend_->currentData().toString();
    checkingIsolation_ = isolation_->currentData().toString();
    checkingRedis_ = redis_->isEnabled() && redis_->isChecked();
    AttackOptions options = optionsFor(checkingBackend_, checkingIsolation_, checkingRedis_,
                                       bound_->value(), tracesFolder());
    stop_ = std::make_shared<std::atomic_bool>(false);
    runs_ = std::make_shared<std::atomic<qint64>>(0);
    options.cancel = stop_.get();
    auto runs = runs_;
    options.progress = [runs](qint64 n) {
        runs->store(n, std::memory_order_relaxed);
    };
    const quint64 generation = ++generation_;
    const Challenge challenge = *c;
    const QString source = editor_->toPlainText();
    const QString fileName = challenge_ + QStringLiteral(".js");
    auto stop = stop_;
    check_->setEnabled(false);
    cancel_->setEnabled(true);
    step_->setEnabled(false);
    editor_->markLine(0);
    progress_->setRange(0, 0);
    progress_->setVisible(true);
    progressText_->setText(tr("Checking on %1…").arg(checkedOn()));
    progressTimer_.start();
    // The handler's engine and every run's database are made, used and let
    // go of in the worker; the result comes back through pending_.
    worker_ = std::thread([this, challenge, source, fileName, options, stop, generation] {
        AttackResult r = attackHandler(challenge, source, fileName, options);
        releaseHandlerRuns();
        {
            const std::lock_guard lock(resultMutex_);
            pending_ = std::make_unique<AttackResult>(std::move(r));
        }
        emit workerEnded(generation, QPrivateSignal());
    });
    emit checkingChanged(true);
}

void WorkbenchView::checkNow() {
    const Challenge* c = challenge();
    if (!c || isChecking())
        return;
    if (!starterOverOwnFile())
        save();
    checkingBackend_ = backend_->currentData().toString();
    checkingIsolation_ = isolation_->currentData().toString();
    checkingRedis_ = redis_->isEnabled() && redis_->isChecked();
    const AttackOptions options = optionsFor(checkingBackend_, checkingIsolation_, checkingRedis_,
                                             bound_->value(), tracesFolder());
    const AttackResult r =
        attackHandler(*c, editor_->toPlainText(), challenge_ + QStringLiteral(".js"), options);
    finish(r);
}

void WorkbenchView::cancel() {
    if (stop_)
        stop_->store(true);
}

void WorkbenchView::stop() {
    if (!worker_.joinable())
        return;
    cancel();
    worker_.join();
    {
        const std::lock_guard lock(resultMutex_);
        pending_.reset();
    }
    progressTimer_.stop();
    progress_->setRange(0, 1);
    progress_->setValue(0);
    progress_->setVisible(false);
    check_->setEnabled(true);
    cancel_->setEnabled(false);
    emit checkingChanged(false);
}

void WorkbenchView::showProgress() {
    if (!runs_)
        return;
    progressText_->setText(tr("Checking on %1: schedules run: %2…")
                               .arg(checkedOn())
                               .arg(runs_->load(std::memory_order_relaxed)));
}

void WorkbenchView::workerDone(quint64 generation) {
    // A check stopped (its worker joined there) has nothing more to say.
    if (generation != generation_ || !worker_.joinable())
        return;
    worker_.join();
    std::unique_ptr<AttackResult> r;
    {
        const std::lock_guard lock(resultMutex_);
        r.swap(pending_);
    }
    progressTimer_.stop();
    progress_->setRange(0, 1);
    progress_->setVisible(false);
    check_->setEnabled(true);
    cancel_->setEnabled(false);
    emit checkingChanged(false);
    if (r)
        finish(*r);
}

void WorkbenchView::finish(const AttackResult& result) {
    using Outcome = AttackResult::Outcome;
    switch (result.outcome) {
        case Outcome::Cancelled:
            progressText_->setText(tr("Check cancelled (schedules run: %1).").arg(result.run));
            emit checkFinished();
            return;
        case Outcome::BadHandler: {
            // file:line:column: message, or file:line: message.
            static const QRegularExpression at(QStringLiteral("^[^:]*:(\\d+):(?:(\\d+):)? ?(.*)$"),
                                               QRegularExpression::DotMatchesEverythingOption);
            const QRegularExpressionMatch m = at.match(result.message);
            if (m.hasMatch())
                editor_->setProblem(m.captured(1).toInt(), m.captured(2).toInt(), m.captured(3));
            problem_->setText(m.hasMatch() ? tr("Line %1: %2").arg(m.captured(1), m.captured(3))
                                           : result.message);
            problem_->setVisible(true);
            progressText_->setText(tr("The handler cannot be checked: %1").arg(result.message));
            emit checkFinished();
            return;
        }
        case Outcome::RunFailed:
            progressText_->setText(tr("The check could not run: %1").arg(result.message));
            emit checkFinished();
            return;
        case Outcome::Passed:
        case Outcome::Failed:
            break;
    }
    last_ = std::make_unique<AttackResult>(result);
    const bool passed = result.outcome == Outcome::Passed;
    setState(challenge_, result.backend,
             passed ? QStringLiteral("passed") : QStringLiteral("failed"));
    // One row per database: a new check replaces its row.
    byBackend_.insert(result.backend + QLatin1Char('/') + result.isolation, result);
    fillResults();
    detail_->setText(describe(result));
    const bool steppable = result.counterexample && !result.counterexample->tracePath.isEmpty();
    step_->setEnabled(steppable);
    progressText_->setText(passed ? tr("Passed: no schedule broke it.")
                                  : tr("Failed: the smallest run that breaks it is below."));
    emit message(progressText_->text());
    emit checkFinished();
}

void WorkbenchView::fillResults() {
    results_->setRowCount(0);
    // The databases in the chooser's order, each one's levels in theirs.
    for (const QString& backend : backendIds()) {
        for (const QString& level : isolationIds(backend)) {
            const auto found = byBackend_.constFind(backend + QLatin1Char('/') + level);
            if (found != byBackend_.cend())
                addResultRow(*found);
        }
    }
    results_->resizeColumnsToContents();
}

void WorkbenchView::addResultRow(const AttackResult& result) {
    const bool passed = result.outcome == AttackResult::Outcome::Passed;
    QString verdict = tr("passed");
    if (!passed && result.counterexample) {
        const Counterexample& c = *result.counterexample;
        verdict = c.target.isEmpty() ? tr("failed: %1").arg(verdictName(toId(c.summary.verdict)))
                                     : tr("failed: over the target");
    }
    const int row = results_->rowCount();
    results_->insertRow(row);
    const QStringList cells{checkedOn(&result),
                            firepanel::isolationName(result.isolation),
                            verdict,
                            QString::number(result.run),
                            QString::number(result.skipped),
                            QString::number(result.bounded)};
    for (int col = 0; col < cells.size(); ++col) {
        auto* item = new QTableWidgetItem(cells[col]);
        if (col == 2)
            item->setForeground(passed ? QColor(0x1a, 0x7f, 0x37) : QColor(0xc6, 0x28, 0x28));
        results_->setItem(row, col, item);
    }
}

void WorkbenchView::fillDatabases() {
    backend_->setAccessibleName(tr("Database"));
    for (int i = 0; i < backend_->count(); ++i) {
        const QString id = backend_->itemData(i).toString();
        const QString missing = missingServerPackage(id);
        backend_->setItemText(i, backendName(id));
        // A server that is not installed is listed, not offered, and says
        // which package brings it.
        backend_->setItemData(i, missing.isEmpty() ? QVariant() : QVariant(0), Qt::UserRole - 1);
        backend_->setItemData(
            i,
            !missing.isEmpty() ? tr("Not installed on this computer (Debian package %1): %2")
                                     .arg(missing, installCommand(missing))
            : id == QLatin1String("sqlite")
                ? tr("SQLite in a file of its own for each run: one writer at a time")
                : tr("A private %1 server the lab starts for the check: its locks, waits and "
                     "isolation levels decide what your handler's statements see")
                      .arg(backendName(id)),
            Qt::ToolTipRole);
    }
    backend_->setToolTip(tr("The database your handler is checked on"));
    fitToItems(backend_);
    fillIsolations();
}

void WorkbenchView::chooseDatabase(const QString& backend, const QString& isolation) {
    const int database = backend_->findData(backend);
    if (database >= 0)
        backend_->setCurrentIndex(database);
    const int level = isolation_->findData(isolation);
    isolation_->setCurrentIndex(level >= 0 ? level : 0);
}

void WorkbenchView::fillIsolations() {
    const QString backend = backend_->currentData().toString();
    const QString current = isolation_->currentData().toString();
    const QStringList levels = isolationIds(backend);
    {
        const QSignalBlocker quiet(isolation_);
        isolation_->clear();
        // Names alone, the first being the database's own (its tooltip says
        // so): the row beside Check fits a projector's width in Chinese.
        for (const QString& id : levels) {
            isolation_->addItem(firepanel::isolationName(id), id);
            if (id == levels.first())
                isolation_->setItemData(
                    0,
                    tr("%1's own level: the one its transactions get unless told")
                        .arg(backendName(backend)),
                    Qt::ToolTipRole);
        }
        const int i = isolation_->findData(current);
        isolation_->setCurrentIndex(i >= 0 ? i : 0);
    }
    fitToItems(isolation_);
    // SQLite's one level is shown, not offered.
    isolation_->setEnabled(levels.size() > 1);
    isolation_->setAccessibleName(tr("Isolation level"));
    isolation_->setToolTip(
        tr("The isolation level every transaction of the check runs at: the same "
           "handler can pass at one level and fail at another"));
}

QString WorkbenchView::ladderStates(const QString& challengeId, const QString& chosen) const {
    QStringList said;
    QStringList order{chosen};
    for (const QString& b : backendIds()) {
        if (b != chosen)
            order << b;
    }
    for (const QString& b : order) {
        const QString state = stateOf(challengeId, b);
        said << (state == QLatin1String("passed")   ? tr("passed on %1").arg(backendName(b))
                 : state == QLatin1String("failed") ? tr("failed on %1").arg(backendName(b))
                                                    : tr("not tried on %1").arg(backendName(b)));
    }
    return said.join(QStringLiteral(", "));
}

QString WorkbenchView::describe(const AttackResult& result) const {
    if (result.outcome == AttackResult::Outcome::Passed || !result.counterexample) {
        return tr("Schedules run: %1, with a crash before every statement and every answer "
                  "lost where the challenge asks for them; none broke the handler.")
            .arg(result.run);
    }
    const Counterexample& c = *result.counterexample;
    QStringList lines;
    // "1:2 2 1" reads attempt:statements in turn; "as they arrive" reads itself.
    const QString schedule = c.schedule.contains(QLatin1Char(':'))
                                 ? tr("%1 (attempt:statements in turn)").arg(c.schedule)
                                 : c.schedule;
    lines << tr("Smallest failing run: %1 attempts, %2 statements, %3 preemptions; schedule %4; "
                "%5, %6.")
                 .arg(c.attempts)
                 .arg(c.statements)
                 .arg(c.preemptions)
                 .arg(schedule, sourceName(c.config.source), timingName(c.config.timing));
    for (const WrongAnswer& w : c.summary.wrongAnswers) {
        const QString told = responseName(toId(w.told));
        lines << (w.result.translated().isEmpty()
                      ? tr("#%1 was told %2 without a result, but the database shows %3.")
                            .arg(w.attempt)
                            .arg(told, w.database.translated())
                      : tr("#%1 was told %2 (%3), but the database shows %4.")
                            .arg(w.attempt)
                            .arg(told, w.result.translated(), w.database.translated()));
    }
    if (c.summary.wrongAnswers.isEmpty() && c.target.isEmpty())
        lines << tr("Verdict: %1.").arg(verdictName(toId(c.summary.verdict)));
    if (!c.failure.isEmpty())
        lines << tr("Your handler failed: %1").arg(c.failure);
    if (!c.target.isEmpty())
        lines << tr("Over the challenge's target: %1").arg(c.target);
    return lines.join(QLatin1Char('\n'));
}

bool WorkbenchView::markStatement(int attempt, int index) {
    if (!last_ || !last_->counterexample)
        return false;
    const QList<int> lines = last_->counterexample->lines.value(attempt);
    if (index < 1 || index > lines.size() || lines.at(index - 1) <= 0)
        return false;
    editor_->markLine(lines.at(index - 1));
    return true;
}

// A lesson's starter (lessonplayer.cpp) and the student's own file.
void WorkbenchView::showStarter() {
    const Challenge* c = challenge();
    if (!c || editor_->toPlainText() == c->starter)
        return;
    QTextCursor all(editor_->document());
    all.select(QTextCursor::Document);
    all.insertText(c->starter);
}

bool WorkbenchView::starterOverOwnFile() const {
    const Challenge* c = challenge();
    if (!c || handlerPath().isEmpty() || editor_->toPlainText() != c->starter)
        return false;
    QFile f(handlerPath());
    return f.open(QIODevice::ReadOnly) && QString::fromUtf8(f.readAll()) != c->starter;
}

}  // namespace idem
