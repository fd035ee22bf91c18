// The authoring API's plumbing: what Planner, Setup and Reader ask of the
// scheduler and the database.
#include "authoring.h"

#include "scheduler.h"

namespace idem {

const RunConfig& Planner::config() const {
    return run_.config();
}
qint64 Planner::intentStart(int intent) const {
    return run_.intentStart(intent);
}
void Planner::fire(const AttemptSpec& spec) {
    run_.planFire(spec);
}
quint32 Planner::random(quint32 bound) {
    return run_.planRandom(bound);
}

void Planner::fireDefault(int intent, const QVariantMap& payload) {
    for (const AttemptSpec& s : defaultSpecs(intent, payload)) fire(s);
}

std::vector<AttemptSpec> Planner::defaultSpecs(int intent, const QVariantMap& payload) {
    const RunConfig& c = config();
    const qint64 t0 = intentStart(intent);
    const qint64 spacing = c.effectiveIntervalMs();
    std::vector<AttemptSpec> specs;
    for (int k = 0; k <= c.duplicates; ++k) {
        AttemptSpec s;
        s.intent = intent;
        s.number = k + 1;
        s.at = t0 + k * spacing;
        s.kind = k == 0 ? QStringLiteral("original") : QStringLiteral("duplicate");
        s.payload = payload;
        specs.push_back(s);
    }
    // Same instant: the seed decides who goes first.
    if (spacing == 0) {
        for (std::size_t i = specs.size(); i > 1; --i) {
            std::swap(specs[i - 1], specs[random(quint32(i))]);
        }
    }
    return specs;
}

const RunConfig& Setup::config() const {
    return run_.config();
}

SqlResult Setup::exec(const QString& sql, const QVariantList& params, int intent) {
    const SqlResult r = connection_.exec(sql, params);
    if (run_.tracing()) {
        TraceEvent e = Scheduler::sqlEvent(connection_, sql, params, r);
        e.intent = intent;
        e.fields.set("phase", QStringLiteral("setup"));
        run_.keepValues(e, r);
        run_.record(std::move(e));
    }
    if (r.isStorageFailure()) {
        // One line with the path and the disk's words, as a run that fills
        // the disk later says it.
        throw SetupFailure(QStringLiteral("the database file %1 could not be written: %2")
                               .arg(run_.databasePath(), r.errorText())
                               .toStdString(),
                           true);
    }
    if (!r.ok) {
        throw SetupFailure(QStringLiteral("a set-up statement failed: %1\n%2")
                               .arg(r.errorText(), connection_.textSent(sql).simplified())
                               .toStdString());
    }
    return r;
}

void Setup::transition(int intent, const QString& entity, const QString& from, const QString& to) {
    if (!run_.tracing())
        return;
    TraceEvent e;
    e.intent = intent;
    e.actor = nameId(u"client");
    e.kind = EventKind::Transition;
    e.fields = {{"entity", entity}, {"from_state", from}, {"to_state", to}, {"accepted", true}};
    run_.record(std::move(e));
}

SqlResult Reader::checked(SqlResult r, const QString& what) {
    if (!r.ok) {
        throw ReadFailure(QStringLiteral("the judge could not read the database: %1\n%2")
                              .arg(r.errorText(), what.simplified())
                              .toStdString());
    }
    return r;
}

SqlResult Reader::query(const QString& sql, const QVariantList& params) {
    return checked(connection_.exec(sql, params), sql);
}

bool Reader::hasTable(const QString& table) {
    return !checked(connection_.findTable(table), QStringLiteral("find table ") + table).empty();
}

QString Reader::integrity() {
    return checked(connection_.integrityCheck(), QStringLiteral("integrity check"))
        .value()
        .toString();
}

qint64 Reader::count(const QString& sql, const QVariantList& params) {
    return query(sql, params).value().toLongLong();
}

}  // namespace idem
