// The append-only record of a run: every fire, SQL statement, lock wait, guard
// decision, transition, crash, retry, response, effect and alert, stamped with
// virtual time, intent, attempt and actor.
#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QVariantList>
#include <QVariantMap>

namespace idem {

struct RunConfig;

struct TraceEvent {
    qint64 seq = 0;
    qint64 tMs = 0;
    int intent = -1;  // -1: not tied to one intent (schema, judge)
    int attempt = 0;  // 0: set-up, not an attempt
    QString actor;
    QString kind;  // fire, sql, lock-wait, guard, transition, crash, retry, response, effect,
                   // alert, ...

    // sql events
    QString connection;
    QString sql;
    QVariantList params;
    qint64 rows = -1;
    QString error;  // empty: no error

    // every other kind: its own fields, written as they are
    QVariantMap data;

    QJsonObject toJson() const;
    static bool fromJson(const QJsonObject& json, TraceEvent* out, QString* error);
};

}  // namespace idem

// Every member is an implicitly shared Qt value or a number: a growing trace
// may move events with memmove.
Q_DECLARE_TYPEINFO(idem::TraceEvent, Q_RELOCATABLE_TYPE);

namespace idem {

class Trace {
public:
    static constexpr const char* kFormat = "idemlab-trace";
    static constexpr int kVersion = 1;

    TraceEvent& append(TraceEvent event);
    const QList<TraceEvent>& events() const { return events_; }
    qsizetype size() const { return events_.size(); }
    void clear() { events_.clear(); }

    QByteArray toJson(const RunConfig& config, const QJsonObject& summary) const;
    // Writes through QSaveFile: the file is either complete or untouched.
    bool save(const QString& path, const RunConfig& config, const QJsonObject& summary,
              QString* error) const;

    struct Loaded {
        QJsonObject config;
        QJsonObject summary;
        QList<TraceEvent> events;
    };
    // Reads a trace file; a corrupt, truncated or newer-version file gives a
    // message a student understands.
    static bool load(const QString& path, Loaded* out, QString* error);
    static bool parse(const QByteArray& bytes, Loaded* out, QString* error);

private:
    QList<TraceEvent> events_;
};

}  // namespace idem
