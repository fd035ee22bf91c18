#include "eventtable.h"

#include "exporttext.h"
#include "sqlconnection.h"
#include "traceexport.h"

namespace idem {

namespace {

TableCell number(qint64 n) {
    return {TableCell::Kind::Number, QString::number(n)};
}

TableCell text(const QString& s) {
    return s.isEmpty() ? TableCell{} : TableCell{TableCell::Kind::Text, s};
}

// One of the two counts: the number when the event has that kind of count.
TableCell count(const TraceEvent& e, RowCount counts) {
    return e.is(EventKind::Sql) && e.counts == counts ? number(e.rows) : TableCell{};
}

}  // namespace

EventTable::~EventTable() = default;

QByteArrayList EventTable::begin(const ExportRun& run) {
    const QString backend = run.config.value("backend").toString();
    server_ = !backend.isEmpty() && backend != QLatin1String("sqlite");
    narrator_ = std::make_unique<Narrator>(run.intents, words_);
    locks_.clear();
    locks_.setBackend(backend);
    // Appended one by one: a list built from an initializer list writes
    // through a null block when its allocation fails.
    QByteArrayList columns;
    for (const char* name :
         {"seq", "t_ms", "intent", "attempt", "actor", "kind", "connection", "sql", "params",
          "rows_returned", "rows_changed", "error", "data", "caption"})
        columns.append(name);
    if (server_) {
        for (const char* name : {"outcome", "waiting_for", "lock", "waited_ms"})
            columns.append(name);
    }
    return columns;
}

void EventTable::cells(const TraceEvent& e, const CellSink& sink) {
    sink(number(e.seq));
    sink(number(e.tMs));
    sink(number(e.intent));
    sink(number(e.attempt));
    sink(text(e.actorName()));
    sink(text(e.kindId()));
    sink(text(e.connectionName()));
    sink(text(e.sql));
    sink(text(paramsText(e.params)));
    sink(count(e, RowCount::Returned));
    sink(count(e, RowCount::Changed));
    sink(text(e.errorText()));
    sink(text(eventDataText(e)));
    sink(text(narrator_->caption(e)));
    if (!server_)
        return;
    const LockStep step = locks_.follow(e);
    QString waitingFor;
    QString lock;
    if (step.began) {
        QStringList holders;
        for (const AttemptRef& a : step.began->holders) holders << locks_.name(a);
        waitingFor = holders.join(QStringLiteral(", "));
        lock = LockStory::lockText(step.began->lock);
    }
    sink(e.is(EventKind::Sql) ? text(QString::fromLatin1(outcomeId(e.outcome()))) : TableCell{});
    sink(text(waitingFor));
    sink(text(lock));
    sink(step.ended ? number(step.ended->endMs - step.ended->tMs) : TableCell{});
}

}  // namespace idem
