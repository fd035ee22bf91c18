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
        {"ttl-key", QT_TRANSLATE_NOOP("idem::TraceWords", "TTL key")},
        {"version", QT_TRANSLATE_NOOP("idem::TraceWords", "version")},
        {"check-then-insert", QT_TRANSLATE_NOOP("idem::TraceWords", "check then insert")},
        {"alert-rule", QT_TRANSLATE_NOOP("idem::TraceWords", "alert rule")},
        {"stock-check", QT_TRANSLATE_NOOP("idem::TraceWords", "stock check")},
        {"tcc-log", QT_TRANSLATE_NOOP("idem::TraceWords", "TCC log")},
        {"deduction-record", QT_TRANSLATE_NOOP("idem::TraceWords", "deduction record")},
        {"order-status", QT_TRANSLATE_NOOP("idem::TraceWords", "order status")},
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
        {"out-of-stock", QT_TRANSLATE_NOOP("idem::TraceWords", "out of stock")},
        {"raised", QT_TRANSLATE_NOOP("idem::TraceWords", "raised")},
        {"already-raised", QT_TRANSLATE_NOOP("idem::TraceWords", "already raised")},
        {"below-threshold", QT_TRANSLATE_NOOP("idem::TraceWords", "below the threshold")},
        {"normal-repeat", QT_TRANSLATE_NOOP("idem::TraceWords", "a normal repeat")},
        {"marked-failed", QT_TRANSLATE_NOOP("idem::TraceWords", "marked failed")},
        {"key-reused", QT_TRANSLATE_NOOP("idem::TraceWords", "key reused for another request")},
        {"repeat", QT_TRANSLATE_NOOP("idem::TraceWords", "a repeat")},
        {"empty-rollback", QT_TRANSLATE_NOOP("idem::TraceWords", "empty rollback")},
        {"anti-hanging", QT_TRANSLATE_NOOP("idem::TraceWords", "late Try refused")},
        {"already-refunded", QT_TRANSLATE_NOOP("idem::TraceWords", "already refunded")},
    };
    return lookUp(words, decision);
}

QString entityName(const QString& what) {
    static const QHash<QString, const char*> words{
        {"dedup record", QT_TRANSLATE_NOOP("idem::TraceWords", "dedup record")},
        {"order", QT_TRANSLATE_NOOP("idem::TraceWords", "order")},
        {"message", QT_TRANSLATE_NOOP("idem::TraceWords", "message")},
        {"job run", QT_TRANSLATE_NOOP("idem::TraceWords", "job run")},
        {"outbox row", QT_TRANSLATE_NOOP("idem::TraceWords", "outbox row")},
        {"tcc_log record", QT_TRANSLATE_NOOP("idem::TraceWords", "tcc_log record")},
    };
    return lookUp(words, what);
}

QString paramLabel(const QString& key) {
    static const QHash<QString, const char*> words{
        {"request-id", QT_TRANSLATE_NOOP("idem::TraceWords", "Request id")},
        {"late-failure", QT_TRANSLATE_NOOP("idem::TraceWords", "Late failure callback")},
        {"failed-then-retry", QT_TRANSLATE_NOOP("idem::TraceWords", "First payment fails")},
        {"payload", QT_TRANSLATE_NOOP("idem::TraceWords", "Payload of repeats")},
        {"business-error", QT_TRANSLATE_NOOP("idem::TraceWords", "Business step fails")},
        {"confirm-retries", QT_TRANSLATE_NOOP("idem::TraceWords", "Extra Confirms")},
        {"cancel-before-try", QT_TRANSLATE_NOOP("idem::TraceWords", "Cancel before Try")},
        {"redeliveries", QT_TRANSLATE_NOOP("idem::TraceWords", "Broker redeliveries")},
        {"rows", QT_TRANSLATE_NOOP("idem::TraceWords", "Rows in the feed")},
        {"page-size", QT_TRANSLATE_NOOP("idem::TraceWords", "Page size")},
        {"inserts-per-page", QT_TRANSLATE_NOOP("idem::TraceWords", "Inserts per page")},
        {"ttl-s", QT_TRANSLATE_NOOP("idem::TraceWords", "TTL (s)")},
        {"retention-s", QT_TRANSLATE_NOOP("idem::TraceWords", "Retention (s)")},
        {"threshold", QT_TRANSLATE_NOOP("idem::TraceWords", "Alert threshold")},
        {"queries", QT_TRANSLATE_NOOP("idem::TraceWords", "Queries")},
        {"late-repeat", QT_TRANSLATE_NOOP("idem::TraceWords", "Late repeat")},
        {"processing-ms", QT_TRANSLATE_NOOP("idem::TraceWords", "Processing time (ms)")},
        {"deletes-per-page", QT_TRANSLATE_NOOP("idem::TraceWords", "Deletes per page")},
        {"ties", QT_TRANSLATE_NOOP("idem::TraceWords", "Equal timestamps")},
    };
    return lookUp(words, key);
}

QString paramSummary(const QString& key, const QString& fallback) {
    static const QHash<QString, const char*> words{
        {"request-id", QT_TRANSLATE_NOOP("idem::TraceWords",
                                         "One requestId per order form, or a new one for every "
                                         "click (then repeats look like new orders)")},
        {"payload", QT_TRANSLATE_NOOP("idem::TraceWords",
                                      "Changed: every repeat reuses the requestId with a "
                                      "different amount")},
        {"business-error", QT_TRANSLATE_NOOP("idem::TraceWords",
                                             "On: the first business step fails with a transient "
                                             "error (the risk service answers 503)")},
        {"late-failure", QT_TRANSLATE_NOOP("idem::TraceWords",
                                           "On: a stale FAILED callback arrives after the SUCCESS "
                                           "ones (with First payment fails: the first payment's "
                                           "FAILED again, while the second one is under way)")},
        {"failed-then-retry", QT_TRANSLATE_NOOP("idem::TraceWords",
                                                "On: the first payment fails; the user pays again "
                                                "under a new trade number and that one succeeds")},
        {"processing-ms", QT_TRANSLATE_NOOP("idem::TraceWords",
                                            "How long the consumer works on a message before it "
                                            "acks; longer than the visibility timeout and the "
                                            "broker delivers it again meanwhile")},
        {"late-repeat", QT_TRANSLATE_NOOP("idem::TraceWords",
                                          "On: the last repeat of set-status arrives after another "
                                          "write changed the order")},
        {"rows",
         QT_TRANSLATE_NOOP("idem::TraceWords", "Orders in the feed when the user opens the list")},
        {"page-size", QT_TRANSLATE_NOOP("idem::TraceWords", "Orders per page")},
        {"inserts-per-page",
         QT_TRANSLATE_NOOP("idem::TraceWords", "New orders inserted while the user reads a page")},
        {"deletes-per-page", QT_TRANSLATE_NOOP("idem::TraceWords",
                                               "Orders already seen that are deleted while the "
                                               "user reads a page")},
        {"ties", QT_TRANSLATE_NOOP("idem::TraceWords",
                                   "On: orders come in groups sharing one created_at, and page "
                                   "boundaries fall inside a group")},
        {"ttl-s", QT_TRANSLATE_NOOP("idem::TraceWords",
                                    "How long the cache key lives, in seconds (TTL cache)")},
        {"retention-s", QT_TRANSLATE_NOOP("idem::TraceWords",
                                          "How long dedup rows are kept, in seconds (dedup "
                                          "table)")},
        {"threshold", QT_TRANSLATE_NOOP("idem::TraceWords",
                                        "More repeats of one key within a minute than this raise "
                                        "an alert")},
        {"queries", QT_TRANSLATE_NOOP("idem::TraceWords",
                                      "Status queries for the same payment within the minute "
                                      "(they never alert)")},
        {"confirm-retries", QT_TRANSLATE_NOOP("idem::TraceWords",
                                              "How many more times the coordinator delivers "
                                              "Confirm (a recovery driving the transaction "
                                              "again)")},
        {"cancel-before-try", QT_TRANSLATE_NOOP("idem::TraceWords",
                                                "On: the Try is held up in the network; the "
                                                "coordinator times out and cancels, then the Try "
                                                "arrives")},
        {"redeliveries", QT_TRANSLATE_NOOP("idem::TraceWords",
                                           "How many more times the broker delivers each "
                                           "message: the consumer's acks are lost, and after the "
                                           "visibility timeout it delivers again (at least "
                                           "once)")},
    };
    const char* source = words.value(key);
    return source ? QCoreApplication::translate("idem::TraceWords", source) : fallback;
}

QString paramValueName(const QString& value) {
    static const QHash<QString, const char*> words{
        {"0", QT_TRANSLATE_NOOP("idem::TraceWords", "off")},
        {"1", QT_TRANSLATE_NOOP("idem::TraceWords", "on")},
        {"per-intent", QT_TRANSLATE_NOOP("idem::TraceWords", "one per order form")},
        {"per-click", QT_TRANSLATE_NOOP("idem::TraceWords", "a new one per click")},
        {"same", QT_TRANSLATE_NOOP("idem::TraceWords", "the same")},
        {"changed", QT_TRANSLATE_NOOP("idem::TraceWords", "changed")},
    };
    return lookUp(words, value);
}

}  // namespace idem
