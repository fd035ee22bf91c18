#include "tracewords.h"

#include <QCoreApplication>
#include <QHash>

namespace idem {

namespace {

QString lookUp(const QHash<QString, const char*>& words, const QString& id) {
    const char* source = words.value(id);
    return source ? QCoreApplication::translate("idem::TraceWords", source) : id;
}

}  // namespace

QString attemptKindName(const QString& kind) {
    static const QHash<QString, const char*> words{
        {"original", QT_TRANSLATE_NOOP("idem::TraceWords", "original")},
        {"duplicate", QT_TRANSLATE_NOOP("idem::TraceWords", "duplicate")},
        {"retry", QT_TRANSLATE_NOOP("idem::TraceWords", "retry")},
    };
    return lookUp(words, kind);
}

QString guardName(const QString& guard) {
    static const QHash<QString, const char*> words{
        {"dedup", QT_TRANSLATE_NOOP("idem::TraceWords", "dedup table")},
        {"unique-key", QT_TRANSLATE_NOOP("idem::TraceWords", "unique key")},
        {"claim", QT_TRANSLATE_NOOP("idem::TraceWords", "claim")},
        {"fencing-token", QT_TRANSLATE_NOOP("idem::TraceWords", "fencing token")},
        {"lease-lock", QT_TRANSLATE_NOOP("idem::TraceWords", "lease lock")},
        {"redis-lock", QT_TRANSLATE_NOOP("idem::TraceWords", "Redis lock")},
        {"ttl-key", QT_TRANSLATE_NOOP("idem::TraceWords", "TTL key")},
        {"version", QT_TRANSLATE_NOOP("idem::TraceWords", "version")},
        {"alert-rule", QT_TRANSLATE_NOOP("idem::TraceWords", "alert rule")},
    };
    return lookUp(words, guard);
}

QString guardDecisionName(const QString& decision) {
    static const QHash<QString, const char*> words{
        {"claimed", QT_TRANSLATE_NOOP("idem::TraceWords", "claimed")},
        {"duplicate", QT_TRANSLATE_NOOP("idem::TraceWords", "duplicate")},
        {"in-progress", QT_TRANSLATE_NOOP("idem::TraceWords", "in progress")},
        {"retention-expired", QT_TRANSLATE_NOOP("idem::TraceWords", "retention expired")},
        {"takeover", QT_TRANSLATE_NOOP("idem::TraceWords", "takeover")},
        {"recheck-found", QT_TRANSLATE_NOOP("idem::TraceWords", "found on recheck")},
        {"recheck-not-found", QT_TRANSLATE_NOOP("idem::TraceWords", "not found on recheck")},
        {"marked-success", QT_TRANSLATE_NOOP("idem::TraceWords", "marked success")},
        {"not-owner", QT_TRANSLATE_NOOP("idem::TraceWords", "not the owner")},
        {"done", QT_TRANSLATE_NOOP("idem::TraceWords", "done")},
        {"accepted", QT_TRANSLATE_NOOP("idem::TraceWords", "accepted")},
        {"rejected", QT_TRANSLATE_NOOP("idem::TraceWords", "rejected")},
        {"acquired", QT_TRANSLATE_NOOP("idem::TraceWords", "acquired")},
        {"held", QT_TRANSLATE_NOOP("idem::TraceWords", "held by another")},
        {"released", QT_TRANSLATE_NOOP("idem::TraceWords", "released")},
        {"lease-lost", QT_TRANSLATE_NOOP("idem::TraceWords", "lease lost")},
        {"set", QT_TRANSLATE_NOOP("idem::TraceWords", "set")},
        {"result-stored", QT_TRANSLATE_NOOP("idem::TraceWords", "result stored")},
        {"expired-before-store",
         QT_TRANSLATE_NOOP("idem::TraceWords", "expired before the result was stored")},
        {"inserted", QT_TRANSLATE_NOOP("idem::TraceWords", "inserted")},
        {"found", QT_TRANSLATE_NOOP("idem::TraceWords", "found")},
        {"not-found", QT_TRANSLATE_NOOP("idem::TraceWords", "not found")},
        {"read", QT_TRANSLATE_NOOP("idem::TraceWords", "read")},
        {"conflict", QT_TRANSLATE_NOOP("idem::TraceWords", "conflict")},
        {"raised", QT_TRANSLATE_NOOP("idem::TraceWords", "raised")},
        {"already-raised", QT_TRANSLATE_NOOP("idem::TraceWords", "already raised")},
        {"below-threshold", QT_TRANSLATE_NOOP("idem::TraceWords", "below the threshold")},
        {"normal-repeat", QT_TRANSLATE_NOOP("idem::TraceWords", "a normal repeat")},
        {"marked-failed", QT_TRANSLATE_NOOP("idem::TraceWords", "marked failed")},
        {"key-reused", QT_TRANSLATE_NOOP("idem::TraceWords", "key reused for another request")},
    };
    return lookUp(words, decision);
}

QString paramValueName(const QString& value) {
    static const QHash<QString, const char*> words{
        {"0", QT_TRANSLATE_NOOP("idem::TraceWords", "off")},
        {"1", QT_TRANSLATE_NOOP("idem::TraceWords", "on")},
    };
    return lookUp(words, value);
}

}  // namespace idem
