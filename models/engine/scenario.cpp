#include "scenario.h"

#include "attempt.h"
#include "authoring.h"
#include "runconfig.h"

namespace idem {

QString toId(ScenarioGroup g) {
    switch (g) {
        case ScenarioGroup::Recommended:
            return QStringLiteral("recommended");
        case ScenarioGroup::Natural:
            return QStringLiteral("natural");
        case ScenarioGroup::Read:
            return QStringLiteral("read");
        case ScenarioGroup::Misconception:
            return QStringLiteral("misconception");
        case ScenarioGroup::Production:
            return QStringLiteral("production");
    }
    return {};
}

const VariantInfo* ScenarioInfo::variant(const QString& id) const {
    for (const VariantInfo& v : variants) {
        if (v.id == id)
            return &v;
    }
    return nullptr;
}

const ParamInfo* ScenarioInfo::param(const QString& key) const {
    for (const ParamInfo& p : params) {
        if (p.key == key)
            return &p;
    }
    return nullptr;
}

QString ScenarioInfo::recommendedVariant() const {
    for (const VariantInfo& v : variants) {
        if (v.recommended)
            return v.id;
    }
    return variants.isEmpty() ? QString() : variants.first().id;
}

QString ScenarioInfo::baselineVariant() const {
    if (variant(baseline))
        return baseline;
    return variants.isEmpty() ? QString() : variants.first().id;
}

QString ScenarioInfo::paramValue(const RunConfig& config, const QString& key) const {
    if (config.params.contains(key))
        return config.params.value(key);
    const ParamInfo* p = param(key);
    return p ? p->defaultValue : QString();
}

QStringList Scenario::schema(const RunConfig& config) const {
    QStringList s = info().schema;
    if (const VariantInfo* v = info().variant(config.variant))
        s << v->schema;
    return s;
}

Task<Reply> Scenario::handle(Attempt& a) const {
    return a.variant().handle(a);
}

void Scenario::seed(Setup&, int) const {}

void Scenario::plan(Planner& planner, int intent) const {
    planner.fireDefault(intent);
}

Effects Scenario::expectedEffects(const RunConfig&, int) const {
    Effects e;
    for (const QString& name : info().effectNames) e.insert(name, 1);
    return e;
}

Phrase Scenario::inconsistency(Reader&, int) const {
    return {};
}

std::vector<Effects> Scenario::effectsOfAll(Reader& db, int intents) const {
    std::vector<Effects> all;
    all.reserve(std::size_t(intents));
    for (int i = 0; i < intents; ++i) all.push_back(effects(db, i));
    return all;
}

void Scenario::completeAlerts(Reader&, QList<AlertRecord>&) const {}

std::vector<AnswerTruth> Scenario::answerTruthOfAll(Reader&, int intents) const {
    return std::vector<AnswerTruth>(static_cast<std::size_t>(intents));
}

std::vector<Phrase> Scenario::inconsistenciesOfAll(Reader& db, int intents) const {
    std::vector<Phrase> all;
    all.reserve(std::size_t(intents));
    for (int i = 0; i < intents; ++i) all.push_back(inconsistency(db, i));
    return all;
}

Verdict Scenario::judge(const IntentJudgement& j) const {
    for (auto it = j.effects.cbegin(); it != j.effects.cend(); ++it) {
        if (it.value() > j.expected.value(it.key()))
            return Verdict::Duplicated;
    }
    if (!j.inconsistency.isEmpty())
        return Verdict::Inconsistent;
    for (auto it = j.expected.cbegin(); it != j.expected.cend(); ++it) {
        if (j.effects.value(it.key()) < it.value())
            return Verdict::Lost;
    }
    if (!j.answered)
        return Verdict::Stuck;
    return Verdict::ExactlyOnce;
}

void Scenario::extendSummary(Reader&, const RunConfig&, QJsonObject&) const {}

}  // namespace idem
