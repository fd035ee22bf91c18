// The judge: reads effects, consistency and integrity from the database a
// run left behind, and turns them into verdicts per intent and per run.
#include "run.h"

#include "attempt.h"
#include "sqlconnection.h"

#include <QJsonArray>

#include <algorithm>

namespace idem {

IntentJudgement Run::judgeIntent(Reader& reader, int intent) const {
    IntentJudgement j;
    j.effects = scenario_.effects(reader, intent);
    j.expected = scenario_.expectedEffects(config_, intent);
    j.inconsistency = scenario_.inconsistency(reader, intent);
    j.answered = intents_[intent].answered;
    j.verdict = scenario_.judge(j);
    return j;
}

QJsonObject Run::finish() {
    // Every process has ended; close their connections so the file is whole.
    idle_.clear();
    busy_.clear();
    setupConnection_.reset();
    auto connection = openReader();
    Reader reader(*connection);
    summary_ = judgeAll(reader, true);
    const SqlResult integrity = reader.query(QStringLiteral("PRAGMA integrity_check"));
    summary_.insert("integrity",
                    integrity.ok ? integrity.value().toString() : integrity.errorText());
    reader.query(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)"));
    scenario_.extendSummary(reader, config_, summary_);
    return summary_;
}

QJsonObject Run::judgeNow(Reader& reader) {
    return judgeAll(reader, false);
}

QJsonObject Run::judgeAll(Reader& reader, bool recordEvents) {
    Effects effects, expected;
    int counts[5] = {0, 0, 0, 0, 0};
    int responses[5] = {0, 0, 0, 0, 0};
    Verdict worst = Verdict::ExactlyOnce;
    QJsonArray inconsistencies;
    std::vector<IntentOutcome> outcomes;
    for (int i = 0; i < int(intents_.size()); ++i) {
        IntentOutcome o{judgeIntent(reader, i), intents_[i].responses};
        for (auto it = o.judgement.effects.cbegin(); it != o.judgement.effects.cend(); ++it) {
            effects[it.key()] += it.value();
            if (!recordEvents)
                continue;
            record(nullptr, QStringLiteral("effect"),
                   {{"effect", it.key()},
                    {"count", it.value()},
                    {"expected", o.judgement.expected.value(it.key())}})
                .intent = i;
        }
        for (auto it = o.judgement.expected.cbegin(); it != o.judgement.expected.cend(); ++it) {
            expected[it.key()] += it.value();
            if (!effects.contains(it.key()))
                effects[it.key()] = 0;
        }
        if (!o.judgement.inconsistency.isEmpty() && inconsistencies.size() < 20) {
            inconsistencies.append(o.judgement.inconsistency);
        }
        if (recordEvents) {
            record(nullptr, QStringLiteral("verdict"),
                   {{"verdict", toId(o.judgement.verdict)}, {"answered", o.judgement.answered}})
                .intent = i;
        }
        worst = std::max(worst, o.judgement.verdict);
        ++counts[int(o.judgement.verdict)];
        for (Response r : o.responses) ++responses[int(r)];
        outcomes.push_back(o);
    }
    if (recordEvents)
        outcomes_ = outcomes;

    QJsonObject effectsJson, expectedJson, responsesJson, verdictsJson;
    for (auto it = effects.cbegin(); it != effects.cend(); ++it) {
        effectsJson.insert(it.key(), it.value());
    }
    for (auto it = expected.cbegin(); it != expected.cend(); ++it) {
        expectedJson.insert(it.key(), it.value());
    }
    const QStringList rIds = responseIds();
    for (int r = 0; r < 5; ++r) responsesJson.insert(rIds[r], responses[r]);
    const QStringList vIds = verdictIds();
    for (int v = 0; v < 5; ++v) {
        if (counts[v] > 0)
            verdictsJson.insert(vIds[v], counts[v]);
    }
    QJsonArray alerts;
    for (const TraceEvent& e : trace_.events()) {
        if (e.kind != QLatin1String("alert"))
            continue;
        QJsonObject a = QJsonObject::fromVariantMap(e.data);
        a.insert("t_ms", e.tMs);
        a.insert("intent", e.intent);
        alerts.append(a);
    }
    const int attempts = int(std::count_if(attempts_.begin(), attempts_.end(),
                                           [](const auto& a) { return a->counted(); }));
    QJsonObject summary{
        {"scenario", config_.scenario},
        {"variant", config_.variant},
        {"timing", toId(config_.timing)},
        {"source", toId(config_.source)},
        {"crash", toId(config_.crash)},
        {"crash_attempt", config_.crashAttempt},
        {"duplicates", config_.duplicates},
        {"seed", qint64(config_.seed)},
        {"intents", int(intents_.size())},
        {"attempts", attempts},
        {"effects", effectsJson},
        {"expected_effects", expectedJson},
        {"responses", responsesJson},
        {"alerts", alerts},
        {"verdict", toId(worst)},
        {"verdicts", verdictsJson},
        {"end_ms", now_},
    };
    if (!inconsistencies.isEmpty())
        summary.insert("inconsistencies", inconsistencies);
    return summary;
}

}  // namespace idem
