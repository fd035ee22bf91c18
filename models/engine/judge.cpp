// The judge: reads effects, consistency and integrity from the database a
// run left behind, and turns them into verdicts per intent and per run.
#include "scheduler.h"

#include "attempt.h"
#include "sqlconnection.h"

#include <QCoreApplication>

#include <algorithm>

namespace idem {

namespace {

// The judge's sentences, said in English in the summary and in the
// reader's language where they are shown.
Phrase judged(const char* source, std::vector<Phrase> args = {}) {
    return Phrase("idem::Judge", source, std::move(args));
}

// SPEC section 2, Answers: a repeat gets the first result. A definite
// answer held against what the database shows: what the database shows
// instead when the answer is wrong, else empty.
Phrase wrongBy(const Run::Answer& a, const AnswerTruth& intentTruth) {
    // An attempt that asked for one of several operations is held against
    // what the database says of that operation.
    const auto op = intentTruth.operations.constFind(a.operation);
    const AnswerTruth& truth = op != intentTruth.operations.cend() ? op.value() : intentTruth;
    if (!truth.checked)
        return {};
    if (a.changedPayload != truth.payloadDone) {
        // Another payload than the one the key was carried out with: this
        // request was not done, and only a refusal (or an explicit
        // key-reused error) is true.
        if (a.response != Response::Success)
            return {};
        if (!truth.happened)
            return judged(QT_TRANSLATE_NOOP(
                "idem::Judge", "the changed request was not carried out; nothing was done"));
        if (truth.payloadDone == 0)
            return judged(QT_TRANSLATE_NOOP(
                "idem::Judge", "the changed request was not carried out; the original stands"));
        // A changed request got to the key first (concurrent timing).
        return judged(QT_TRANSLATE_NOOP("idem::Judge",
                                        "this request was not carried out; a request with other "
                                        "parameters under the same key was"));
    }
    if (a.response == Response::Success) {
        if (!truth.happened)
            return truth.shows.isEmpty()
                       ? judged(QT_TRANSLATE_NOOP("idem::Judge", "nothing was done"))
                       : truth.shows;
        if (!truth.result.isEmpty() && a.result.english() != truth.result.english())
            return judged(QT_TRANSLATE_NOOP("idem::Judge", "the result is %1"), {truth.result});
    } else if (a.response == Response::Rejected && truth.happened) {
        if (!truth.shows.isEmpty())
            return truth.shows;
        if (truth.result.isEmpty())
            return judged(QT_TRANSLATE_NOOP("idem::Judge", "it was done"));
        return judged(QT_TRANSLATE_NOOP("idem::Judge", "it was done: %1"), {truth.result});
    }
    return {};
}

// Duplicated only in effects the variant accepts repeating.
bool onlyTolerated(const IntentJudgement& j, const QStringList& tolerated) {
    if (j.verdict != Verdict::Duplicated)
        return false;
    for (auto it = j.effects.cbegin(); it != j.effects.cend(); ++it) {
        if (it.value() > j.expected.value(it.key()) && !tolerated.contains(it.key()))
            return false;
    }
    return true;
}

}  // namespace

const Scheduler::CheckedAnswers& Scheduler::checkAnswers(int intent,
                                                         const AnswerTruth& truth) const {
    if (checkedAnswers_.size() < intents_.size())
        checkedAnswers_.resize(intents_.size());
    CheckedAnswers& c = checkedAnswers_[std::size_t(intent)];
    if (!c.valid || !(c.truth == truth)) {  // what the database shows changed: all again
        c = CheckedAnswers{};
        c.truth = truth;
        c.valid = true;
    }
    const IntentState& state = intents_[std::size_t(intent)];
    for (qint32 i = c.last >= 0 ? answers_[std::size_t(c.last)].next : state.firstAnswer; i >= 0;
         i = answers_[std::size_t(i)].next) {
        const Answer a = answerAt(i);
        if (Phrase database = wrongBy(a, truth); !database.isEmpty()) {
            if (c.firstWrong.size() < kMaxWrongAnswers)
                c.firstWrong << WrongAnswer{intent, a.attempt, a.response, a.result,
                                            std::move(database)};
            ++c.wrongCount;
        }
        c.last = i;
    }
    return c;
}

Summary Scheduler::judgeNow(Reader& reader) const {
    return judgeAll(reader, {});
}

Summary Scheduler::judgeAll(Reader& reader,
                            const std::function<void(int, const IntentJudgement&)>& judged) const {
    Summary s;
    s.config = config_;
    s.complete = failure_ == RunFailure::None;
    // A run stopped midway speaks of the intents it began: one whose first
    // attempt never came was not lost, it was never asked for (and judging
    // a hundred thousand of them would keep a stopped run busy).
    const int n = s.complete ? int(intents_.size()) : std::min(planned_, int(intents_.size()));
    s.intents = n;
    s.attempts = countedAttempts_;
    s.endMs = now_;
    s.cost = cost_;
    s.serverVersion = backend_->serverVersion();
    s.sessionSettings = backend_->sessionSettings();
    s.alerts = alerts_;
    scenario_.completeAlerts(reader, s.alerts);
    const std::vector<Effects> effects = scenario_.effectsOfAll(reader, n);
    const std::vector<Phrase> inconsistencies = scenario_.inconsistenciesOfAll(reader, n);
    const std::vector<AnswerTruth> truths = scenario_.answerTruthOfAll(reader, n);
    bool allTolerated = true;
    for (int i = 0; i < n; ++i) {
        IntentJudgement j;
        j.effects = effects[std::size_t(i)];
        j.expected = scenario_.expectedEffects(config_, i);
        j.inconsistency = inconsistencies[std::size_t(i)];
        j.answered = intents_[std::size_t(i)].answered;
        j.verdict = scenario_.judge(j);
        const CheckedAnswers& checked = checkAnswers(i, truths[std::size_t(i)]);
        if (checked.wrongCount > 0)
            j.verdict = std::max(j.verdict, Verdict::Misanswered);
        j.tolerated = variant_ && onlyTolerated(j, variant_->toleratedEffects);
        if (j.verdict == Verdict::Duplicated)
            allTolerated &= j.tolerated;
        for (const WrongAnswer& w : checked.firstWrong) {
            if (s.wrongAnswers.size() < kMaxWrongAnswers)
                s.wrongAnswers << w;
        }
        for (auto it = j.effects.cbegin(); it != j.effects.cend(); ++it)
            s.effects[it.key()] += it.value();
        for (auto it = j.expected.cbegin(); it != j.expected.cend(); ++it) {
            s.expectedEffects[it.key()] += it.value();
            if (!s.effects.contains(it.key()))
                s.effects[it.key()] = 0;
        }
        if (!j.inconsistency.isEmpty() && s.inconsistencies.size() < 20)
            s.inconsistencies << j.inconsistency;
        s.verdict = std::max(s.verdict, j.verdict);
        ++s.verdicts[std::size_t(j.verdict)];
        const auto& responses = intents_[std::size_t(i)].responses;
        for (std::size_t r = 0; r < responses.size(); ++r) s.responses[r] += responses[r];
        if (judged)
            judged(i, j);
    }
    s.tolerated = s.verdict == Verdict::Duplicated && allTolerated;
    return s;
}

void Scheduler::recordJudgement(int intent, const IntentJudgement& j) {
    if (!tracing())
        return;
    const NameId judge = nameId(u"judge");
    for (auto it = j.effects.cbegin(); it != j.effects.cend(); ++it) {
        TraceEvent e;
        e.kind = EventKind::Effect;
        e.actor = judge;
        e.intent = intent;
        e.fields = {
            {"effect", it.key()}, {"count", it.value()}, {"expected", j.expected.value(it.key())}};
        record(std::move(e));
    }
    TraceEvent e;
    e.kind = EventKind::Verdict;
    e.actor = judge;
    e.intent = intent;
    e.fields = {{"verdict", toId(j.verdict)}, {"answered", j.answered}};
    record(std::move(e));
}

bool Scheduler::finish(QString* error) {
    // Every process has ended; close their connections so the file is whole.
    processes_.clear();
    locks_.clear();
    idle_.clear();
    busy_.clear();
    setupConnection_.reset();
    if (failure_ == RunFailure::Io || failure_ == RunFailure::BadInput ||
        failure_ == RunFailure::Internal) {
        *error = failureMessage_;
        return false;
    }
    try {
        auto connection = openReader();
        Reader reader(*connection);
        summary_ = judgeAll(
            reader, [this](int intent, const IntentJudgement& j) { recordJudgement(intent, j); });
        summary_.integrity = reader.integrity();
        QJsonObject extras;
        scenario_.extendSummary(reader, config_, extras);
        summary_.extras = extras;
    } catch (const ReadFailure& e) {
        // A server that died after the last step: said as such.
        const QString lost = backend_->lostServer(true);
        fail(lost.isEmpty() ? RunFailure::Internal : RunFailure::Io,
             lost.isEmpty() ? QString::fromStdString(e.what()) : lost);
        *error = failureMessage_;
        return false;
    }
    // A stopped run keeps its summary, marked incomplete, but not its file.
    if (failure_ == RunFailure::Cancelled) {
        *error = failureMessage_;
        return false;
    }
    bool badInput = false;
    if (!backend_->publish(config_.toJson(), error, &badInput)) {
        fail(badInput ? RunFailure::BadInput : RunFailure::Io, *error);
        return false;
    }
    return true;
}

}  // namespace idem
