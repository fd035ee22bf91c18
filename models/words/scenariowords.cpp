#include "scenariowords.h"

#include "names.h"
#include "traceevent.h"
#include "tracewords.h"

namespace idem {

namespace {

const Phrase* find(const QList<Term>& terms, const QString& id) {
    for (const Term& t : terms) {
        if (t.id == id)
            return &t.name;
    }
    return nullptr;
}

}  // namespace

QString ScenarioWords::actorName(const QString& id) const {
    const Phrase* own = find(actors, id);
    return own ? own->translated() : idem::actorName(id);
}

QString ScenarioWords::guardName(const QString& id) const {
    const Phrase* own = find(guards, id);
    return own ? own->translated() : idem::guardName(id);
}

QString ScenarioWords::decisionName(const QString& id) const {
    const DecisionWords* own = decision(id);
    return own ? own->name.translated() : guardDecisionName(id);
}

QString ScenarioWords::noteLabel(const QString& kind) const {
    for (const NoteWords& n : notes) {
        if (n.kind == kind)
            return n.label.translated();
    }
    return kind;
}

QString ScenarioWords::paramLabel(const QString& key) const {
    for (const ParamWords& p : params) {
        if (p.key == key)
            return p.label.translated();
    }
    return key;
}

QString ScenarioWords::paramHelp(const QString& key, const QString& fallback) const {
    for (const ParamWords& p : params) {
        if (p.key == key && !p.help.isEmpty())
            return p.help.translated();
    }
    return fallback;
}

QString ScenarioWords::paramValueName(const QString& key, const QString& value) const {
    for (const ParamWords& p : params) {
        if (p.key != key)
            continue;
        if (const Phrase* own = find(p.values, value))
            return own->translated();
    }
    return idem::paramValueName(value);
}

QString ScenarioWords::entityName(const QString& fallback) const {
    return entity.isEmpty() ? fallback : entity.translated();
}

const NoteWords* ScenarioWords::note(const TraceEvent& e) const {
    const QString kind = e.kindId();
    for (const NoteWords& n : notes) {
        if (n.kind == kind && (!n.when || e.fields.contains(n.when)))
            return &n;
    }
    return nullptr;
}

const DecisionWords* ScenarioWords::decision(const QString& id) const {
    for (const DecisionWords& d : decisions) {
        if (d.id == id)
            return &d;
    }
    return nullptr;
}

const ScenarioWords& ScenarioWords::none() {
    static const ScenarioWords kNone;
    return kNone;
}

}  // namespace idem
