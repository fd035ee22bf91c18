// One event of a run, compact: its kind is an enum, actors and note names are
// small ids into a table of names, and the fields of every kind but sql are a
// short list of (static key, value). JSON exists only when an event is written.
#pragma once

#include "phrase.h"
#include "sqlconnection.h"
#include "vocabulary.h"

#include <QJsonObject>
#include <QString>
#include <QVariant>
#include <QVariantList>

#include <initializer_list>
#include <optional>
#include <vector>

namespace idem {

enum class EventKind : quint8 {
    Fire,        // an attempt is sent: sender → receiver
    Retry,       // a caller tries again after no definite answer
    Sql,         // a statement ran (set-up, an attempt, or the ROLLBACK a crash causes)
    LockWait,    // SQLite said the database is locked: the process waits
    Work,        // time spent outside the database
    Pause,       // the process stalls (long-pause)
    Resume,      // ... and goes on
    Guard,       // a technique's decision: claimed, duplicate, in-progress ...
    Transition,  // a state-machine step, accepted (rows changed) or rejected
    Crash,       // the process dies at a crash point
    Response,    // the answer the caller got (none: lost)
    Alert,       // a monitoring rule fired
    Effect,      // the judge counted an effect of an intent
    Verdict,     // the judge's verdict on an intent
    Locks,       // a server's locks for the run's sessions changed (locksnapshot.h)
    Tables,      // a server's committed rows changed (tablesnapshot.h)
    Note,        // a scenario's own event (a page read, a downstream call ...)
};

// "fire", "sql", "lock-wait" ...; a note's kind is its own name.
QString toId(EventKind kind);
// The kind a trace's "kind" string names; anything else is a scenario's note.
EventKind eventKindFromId(QStringView id);

// Short names (actors, note kinds) stored once per process and named by a
// small number in every event. Thread-safe; names are never forgotten.
using NameId = quint16;
NameId nameId(QStringView name);
QString nameOf(NameId id);
// How many names a process may hold: a trace naming more is refused.
constexpr int kMaxNames = 4096;

// A field's name: a string literal of the code, or a name interned while
// reading a trace. Compared by content.
struct Key {
    const char* name;
    constexpr Key(const char* n) : name(n) {}
    bool operator==(const Key& other) const;
};
Key internKey(QStringView name);

struct Field {
    Key key;
    QVariant value;
};

// The fields of one event, in the order they were set (which is the order
// they are written in).
class Fields {
public:
    Fields() = default;
    Fields(std::initializer_list<Field> fields) : items_(fields) {}

    void set(Key key, QVariant value);
    bool contains(Key key) const { return find(key) != nullptr; }
    QVariant value(Key key) const;
    QString text(Key key) const { return value(key).toString(); }
    // A sentence the run wrote (a result, time spent outside the database),
    // to be said in the reader's language; read from a file: its English.
    Phrase phrase(Key key) const { return Phrase::fromVariant(value(key)); }
    qint64 number(Key key) const { return value(key).toLongLong(); }
    bool flag(Key key) const { return value(key).toBool(); }
    bool isEmpty() const { return items_.empty(); }
    auto begin() const { return items_.begin(); }
    auto end() const { return items_.end(); }

private:
    const QVariant* find(Key key) const;
    std::vector<Field> items_;
};

struct TraceEvent {
    qint64 seq = 0;
    qint64 tMs = 0;
    qint32 intent = -1;  // -1: not tied to one intent (schema, judge)
    qint32 attempt = 0;  // 0: set-up, not an attempt
    NameId actor = 0;
    NameId note = 0;  // a Note's own kind name
    EventKind kind = EventKind::Note;
    RowCount counts = RowCount::None;  // sql events: what `rows` counts

    // sql events
    qint16 connection = -1;  // c0, c1 ...; -1: none
    // The rows the statement returned or changed (see counts). A statement
    // with no count of its own (BEGIN, COMMIT) keeps SQLite's count of changes
    // as it stood, the previous statement's, which version 2 wrote as "rows".
    qint64 rows = 0;
    int code = 0;  // the database's own code (SQLite's extended result code); 0: ok
    QString sql;
    QString error;  // the database's message; empty: no error
    QVariantList params;

    // every other kind: its own fields (sql events: phase, cause)
    Fields fields;

    bool is(EventKind k) const { return kind == k; }
    // What a server's run keeps beside the story (its locks, its committed
    // rows), shown by the Locks and table views, not as a step.
    bool isSnapshot() const { return kind == EventKind::Locks || kind == EventKind::Tables; }
    bool failed() const { return code != 0; }
    // What became of the statement, in the words every backend shares.
    SqlOutcome outcome() const;
    QString actorName() const { return nameOf(actor); }
    QString kindId() const { return kind == EventKind::Note ? nameOf(note) : toId(kind); }
    QString connectionName() const;
    // "UNIQUE constraint failed: orders.request_id (2067)"; empty when ok.
    QString errorText() const;
    bool isSetup() const;  // a set-up statement, before the first attempt
    // An sql event's count as version 3 names it: "rows_returned",
    // "rows_changed", or null when the statement has no count of its own.
    const char* rowsKey() const;

    // This event as the trace format writes it: the current version (compact
    // JSON bytes, fields in a fixed order), or as an object of any version,
    // so that an older trace can be compared with a fresh run.
    QByteArray toJsonBytes() const;
    QJsonObject toJson(int version = kTraceVersion) const;
    // Reads an event of a trace of the given version; false with a message
    // naming the bad field.
    static bool fromJson(const QJsonObject& json, int version, TraceEvent* out, QString* error);
};

}  // namespace idem
