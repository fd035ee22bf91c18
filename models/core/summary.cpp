#include "summary.h"

#include <QJsonArray>

namespace idem {

namespace {

QJsonObject effectsJson(const Effects& effects) {
    QJsonObject o;
    for (auto it = effects.cbegin(); it != effects.cend(); ++it) o.insert(it.key(), it.value());
    return o;
}

bool readEffects(const QJsonValue& v, Effects* out) {
    if (!v.isObject())
        return false;
    const QJsonObject o = v.toObject();
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (it.value().toVariant().typeId() != QMetaType::LongLong)
            return false;
        out->insert(it.key(), it.value().toInteger());
    }
    return true;
}

}  // namespace

QJsonObject Summary::toJson(int version) const {
    QJsonObject s = extras;
    QJsonObject responsesJson, verdictsJson;
    for (std::size_t r = 0; r < responses.size(); ++r) {
        responsesJson.insert(toId(Response(r)), responses[r]);
    }
    for (std::size_t v = 0; v < verdicts.size(); ++v) {
        if (verdicts[v] > 0)
            verdictsJson.insert(toId(Verdict(v)), verdicts[v]);
    }
    QJsonArray alertsJson;
    for (const AlertRecord& a : alerts) {
        QJsonObject alert{{"t_ms", a.tMs},
                          {"intent", a.intent},
                          {"key", a.key},
                          {"count", a.count},
                          {"message", a.message.english()}};
        if (version >= 2 && a.finalCount >= 0)
            alert.insert("final_count", a.finalCount);
        alertsJson.append(alert);
    }
    s.insert("scenario", config.scenario);
    s.insert("variant", config.variant);
    s.insert("timing", toId(config.timing));
    s.insert("source", toId(config.source));
    s.insert("crash", toId(config.crash));
    s.insert("crash_attempt", config.crashAttempt);
    s.insert("duplicates", config.duplicates);
    s.insert("seed", qint64(config.seed));
    s.insert("intents", intents);
    s.insert("attempts", attempts);
    s.insert("effects", effectsJson(effects));
    s.insert("expected_effects", effectsJson(expectedEffects));
    s.insert("responses", responsesJson);
    s.insert("alerts", alertsJson);
    s.insert("verdict", toId(verdict));
    s.insert("verdicts", verdictsJson);
    s.insert("end_ms", endMs);
    s.insert("integrity", integrity);
    if (!inconsistencies.isEmpty()) {
        QJsonArray whys;
        for (const Phrase& why : inconsistencies) whys.append(why.english());
        s.insert("inconsistencies", whys);
    }
    if (version >= 2) {
        QJsonArray wrong;
        for (const WrongAnswer& w : wrongAnswers) {
            wrong.append(QJsonObject{{"intent", w.intent},
                                     {"attempt", w.attempt},
                                     {"told", toId(w.told)},
                                     {"result", w.result.english()},
                                     {"database", w.database.english()}});
        }
        s.insert("wrong_answers", wrong);
        // Only when true, like "complete" only when false: a summary
        // without it reads as not tolerated.
        if (tolerated)
            s.insert("tolerated", true);
    }
    if (version >= 2 && !complete)
        s.insert("complete", false);
    if (version >= 4) {
        s.insert("cost", QJsonObject{{"statements", cost.statements},
                                     {"transactions", cost.transactions},
                                     {"rows_written", cost.rowsWritten},
                                     {"lock_waits", cost.lockWaits}});
    }
    // Live mode's fields, on a server only: a run on SQLite reads as every
    // run before live mode did.
    if (config.backend != QLatin1String("sqlite")) {
        s.insert("backend", config.backend);
        s.insert("server_version", serverVersion);
        if (!sessionSettings.isEmpty())
            s.insert("session_settings", QJsonArray::fromStringList(sessionSettings));
        s.insert("isolation", config.isolation);
        s.insert("lock_waits", cost.lockWaits);
        s.insert("deadlocks", cost.deadlocks);
        s.insert("serialization_failures", cost.serializationFailures);
    }
    return s;
}

bool Summary::fromJson(const QJsonObject& json, Summary* out, QString* error) {
    Summary s;
    auto fail = [error](const char* field) {
        *error =
            QStringLiteral("the summary's \"%1\" is missing or invalid").arg(QLatin1String(field));
        return false;
    };
    auto integer = [&json](const char* key, qint64* into) {
        const QVariant v = json.value(QLatin1String(key)).toVariant();
        if (v.typeId() != QMetaType::LongLong)
            return false;
        *into = v.toLongLong();
        return true;
    };
    s.config.scenario = json.value("scenario").toString();
    s.config.variant = json.value("variant").toString();
    if (s.config.scenario.isEmpty())
        return fail("scenario");
    const auto timing = timingFromId(json.value("timing").toString());
    const auto source = sourceFromId(json.value("source").toString());
    const auto crash = crashPointFromId(json.value("crash").toString());
    const auto verdict = verdictFromId(json.value("verdict").toString());
    if (!timing)
        return fail("timing");
    if (!source)
        return fail("source");
    if (!crash)
        return fail("crash");
    if (!verdict)
        return fail("verdict");
    s.config.timing = *timing;
    s.config.source = *source;
    s.config.crash = *crash;
    s.verdict = *verdict;
    qint64 n = 0;
    if (!integer("crash_attempt", &n))
        return fail("crash_attempt");
    s.config.crashAttempt = int(n);
    if (!integer("duplicates", &n))
        return fail("duplicates");
    s.config.duplicates = int(n);
    if (!integer("seed", &n))
        return fail("seed");
    s.config.seed = quint32(n);
    if (!integer("intents", &n))
        return fail("intents");
    s.intents = int(n);
    if (!integer("attempts", &s.attempts))
        return fail("attempts");
    if (!integer("end_ms", &s.endMs))
        return fail("end_ms");
    if (!readEffects(json.value("effects"), &s.effects))
        return fail("effects");
    if (!readEffects(json.value("expected_effects"), &s.expectedEffects))
        return fail("expected_effects");
    Effects counts;
    if (!readEffects(json.value("responses"), &counts))
        return fail("responses");
    for (auto it = counts.cbegin(); it != counts.cend(); ++it) {
        for (std::size_t r = 0; r < s.responses.size(); ++r) {
            if (it.key() == toId(Response(r)))
                s.responses[r] = it.value();
        }
    }
    counts.clear();
    if (!readEffects(json.value("verdicts"), &counts))
        return fail("verdicts");
    for (auto it = counts.cbegin(); it != counts.cend(); ++it) {
        const auto v = verdictFromId(it.key());
        if (!v)
            return fail("verdicts");
        s.verdicts[std::size_t(*v)] = it.value();
    }
    for (const QJsonValue& a : json.value("alerts").toArray()) {
        const QJsonObject o = a.toObject();
        s.alerts.append(AlertRecord{o.value("t_ms").toInteger(), o.value("intent").toInt(),
                                    o.value("key").toString(), o.value("count").toInteger(),
                                    o.value("final_count").toInteger(-1),
                                    Phrase(o.value("message").toString())});
    }
    for (const QJsonValue& why : json.value("inconsistencies").toArray())
        s.inconsistencies << Phrase(why.toString());
    for (const QJsonValue& v : json.value("wrong_answers").toArray()) {
        const QJsonObject o = v.toObject();
        const std::optional<Response> told = responseFromId(o.value("told").toString());
        if (!told)
            return fail("wrong_answers");
        s.wrongAnswers.append(WrongAnswer{o.value("intent").toInt(), o.value("attempt").toInt(),
                                          *told, Phrase(o.value("result").toString()),
                                          Phrase(o.value("database").toString())});
    }
    s.tolerated = json.value("tolerated").toBool(false);
    s.integrity = json.value("integrity").toString();
    s.complete = json.value("complete").toBool(true);
    if (json.contains("cost")) {
        const QJsonObject cost = json.value("cost").toObject();
        for (const char* key : {"statements", "transactions", "rows_written", "lock_waits"}) {
            if (!cost.value(QLatin1String(key)).isDouble() ||
                cost.value(QLatin1String(key)).toInteger(-1) < 0)
                return fail("cost");
        }
        s.cost = {cost.value("statements").toInteger(), cost.value("transactions").toInteger(),
                  cost.value("rows_written").toInteger(), cost.value("lock_waits").toInteger()};
    }
    if (json.contains("backend")) {
        s.config.backend = json.value("backend").toString();
        s.config.isolation = json.value("isolation").toString();
        s.serverVersion = json.value("server_version").toString();
        for (const QJsonValue& v : json.value("session_settings").toArray())
            s.sessionSettings << v.toString();
        s.cost.deadlocks = json.value("deadlocks").toInteger();
        s.cost.serializationFailures = json.value("serialization_failures").toInteger();
    }
    static const QStringList kOwn{"scenario",
                                  "variant",
                                  "timing",
                                  "source",
                                  "crash",
                                  "crash_attempt",
                                  "duplicates",
                                  "seed",
                                  "intents",
                                  "attempts",
                                  "effects",
                                  "expected_effects",
                                  "responses",
                                  "alerts",
                                  "verdict",
                                  "verdicts",
                                  "end_ms",
                                  "integrity",
                                  "inconsistencies",
                                  "complete",
                                  "wrong_answers",
                                  "tolerated",
                                  "cost",
                                  "backend",
                                  "server_version",
                                  "session_settings",
                                  "isolation",
                                  "lock_waits",
                                  "deadlocks",
                                  "serialization_failures"};
    for (auto it = json.begin(); it != json.end(); ++it) {
        if (!kOwn.contains(it.key()))
            s.extras.insert(it.key(), it.value());
    }
    *out = std::move(s);
    return true;
}

}  // namespace idem
