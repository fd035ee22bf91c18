// The captions of a run's events but its statements and its decisions: a
// request sent, a retry, a lock wait, work outside the database, a pause, a
// crash, an alert, the judge's counts and its verdict.
#include "narration.h"

#include "names.h"
#include "narrationtext.h"
#include "phrase.h"
#include "scenariowords.h"
#include "traceevent.h"

namespace idem {

using namespace narration;

namespace {

QString crashSentence(const QString& who, const QString& point) {
    static const QHash<QString, const char*> sentences{
        {"before-commit",
         QT_TRANSLATE_NOOP("idem::Narration",
                           "%1 dies before committing: the database rolls its transaction back, "
                           "as if it never started.")},
        {"after-guard",
         QT_TRANSLATE_NOOP("idem::Narration",
                           "%1 dies after its guard record was written but before the business "
                           "step: the record says someone is working on it, and nobody is.")},
        {"after-business",
         QT_TRANSLATE_NOOP("idem::Narration",
                           "%1 dies after committing the business change but before marking "
                           "its guard record done.")},
        {"before-response",
         QT_TRANSLATE_NOOP("idem::Narration",
                           "%1 dies after all its work, before answering: the caller hears "
                           "nothing and cannot tell whether it worked.")},
        {"after-ack",
         QT_TRANSLATE_NOOP("idem::Narration",
                           "%1 dies right after acknowledging the message, before processing "
                           "it: the broker will not deliver it again.")},
        {"before-ack",
         QT_TRANSLATE_NOOP("idem::Narration",
                           "%1 dies after processing the message, before acknowledging it: the "
                           "broker will deliver it again.")},
        {"after-publish",
         QT_TRANSLATE_NOOP("idem::Narration",
                           "%1 dies after publishing the event, before marking the outbox row "
                           "sent: it will be published again.")},
    };
    const char* source = sentences.value(point);
    if (source)
        return SAY(source).arg(who);
    const auto crash = crashPointFromId(point);
    return SAY(QT_TRANSLATE_NOOP("idem::Narration", "%1 dies: %2."))
        .arg(who, crash ? crashPointName(*crash) : point);
}

QString verdictSentence(const TraceEvent& e) {
    const QString verdict = e.fields.text("verdict");
    static const QHash<QString, const char*> meanings{
        {"exactly-once", QT_TRANSLATE_NOOP("idem::Narration",
                                           "the business effect happened once and every answer "
                                           "agrees with the database.")},
        {"duplicated",
         QT_TRANSLATE_NOOP("idem::Narration", "the business effect happened more than once.")},
        {"inconsistent", QT_TRANSLATE_NOOP("idem::Narration",
                                           "the database contradicts itself: one part of the "
                                           "change is there, another is not.")},
        {"lost", QT_TRANSLATE_NOOP("idem::Narration",
                                   "the business effect never happened, though it should have.")},
        {"stuck", QT_TRANSLATE_NOOP("idem::Narration",
                                    "a record is left in progress for good, and every repeat is "
                                    "turned away.")},
        {"misanswered", QT_TRANSLATE_NOOP("idem::Narration",
                                          "a caller was told something the database "
                                          "contradicts.")},
    };
    const char* meaning = meanings.value(verdict);
    return SAY(QT_TRANSLATE_NOOP("idem::Narration", "Verdict for intent %1: %2, %3"))
        .arg(e.intent + 1)
        .arg(verdictName(verdict), meaning ? SAY(meaning) : QString());
}

}  // namespace

Narrator::Said Narrator::sayPlain(const TraceEvent& e) {
    const QString w = who(e);
    switch (e.kind) {
        case EventKind::Sql:
            sessions_.follow(e);
            waitingSessions_.remove(e.connectionName());
            return saySql(e);
        case EventKind::Guard:
            guarded_.insert(e.intent);
            return sayGuard(e);
        case EventKind::Transition: {
            Said said = sayTransition(e);
            if (e.fields.flag("accepted") && transactions_.latestOpen())
                said.text = joinSentences(
                    said.text, SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                                     "Not yet committed: nobody else sees it.")));
            return said;
        }
        case EventKind::Response:
            return sayResponse(e);
        case EventKind::Note:
            return sayNote(e);
        case EventKind::Fire: {
            const QString kind = e.fields.text("attempt_kind");
            attemptKinds_.insert(attemptKey(e), kind);
            const QString sender = words_->actorName(e.fields.text("sender"));
            const QString receiver = words_->actorName(e.fields.text("receiver"));
            const auto source = sourceFromId(e.fields.text("source"));
            const QString why = source ? sourceName(*source) : e.fields.text("source");
            if (kind == QLatin1String("original"))
                return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                              "%1: the %2 sends the request to the %3."))
                            .arg(w, sender, receiver),
                        3};
            if (kind == QLatin1String("retry")) {
                const auto [depth, most] = retries_.value(attemptKey(e));
                const QString after = retryAfter_.value(attemptKey(e));
                const char* sentence =
                    after == QLatin1String("rejected")
                        ? QT_TRANSLATE_NOOP("idem::Narration",
                                            "%1: the %2 was not told success (it was refused), "
                                            "takes that for a failed delivery and sends the "
                                            "notice again (resend %3 of at most %4).")
                    : after == QLatin1String("error")
                        ? QT_TRANSLATE_NOOP("idem::Narration",
                                            "%1: the %2 was answered with an error, a failure "
                                            "that may pass, and sends the request again (retry "
                                            "%3 of at most %4).")
                    : after == QLatin1String("in-progress")
                        ? QT_TRANSLATE_NOOP("idem::Narration",
                                            "%1: the %2 was told the request is still being "
                                            "processed and asks again (retry %3 of at most %4).")
                        : QT_TRANSLATE_NOOP("idem::Narration",
                                            "%1: the %2 got no definite answer in time and "
                                            "sends the request again (retry %3 of at most %4).");
                return {SAY(sentence).arg(w, sender).arg(depth).arg(most), 3};
            }
            return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                          "%1: the same request reaches the %3 once more, a "
                                          "duplicate from the %2. Cause: %4."))
                        .arg(w, sender, receiver, why),
                    3};
        }
        case EventKind::Retry:
            // Told with the attempt it sends (see Fire).
            retries_.insert(attemptKey(e), {e.fields.number("retry"), e.fields.number("of")});
            retryAfter_.insert(attemptKey(e), e.fields.text("after"));
            {
                const QString after = e.fields.text("after");
                const char* sentence =
                    after == QLatin1String("rejected")
                        ? QT_TRANSLATE_NOOP("idem::Narration",
                                            "The %1 was not told success and sends again.")
                    : after == QLatin1String("error")
                        ? QT_TRANSLATE_NOOP("idem::Narration",
                                            "The %1 was answered with an error and tries again.")
                    : after == QLatin1String("in-progress")
                        ? QT_TRANSLATE_NOOP("idem::Narration",
                                            "The %1 was told to ask again later and does.")
                        : QT_TRANSLATE_NOOP("idem::Narration",
                                            "The %1 got no definite answer in time and tries "
                                            "again.");
                return {SAY(sentence).arg(words_->actorName(e.actorName())), 1};
            }
        case EventKind::LockWait:
            if (isServerLockWait(e))
                return sayLockWait(e);
            return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                          "%1 waits: another transaction holds the database's "
                                          "write lock."))
                        .arg(w),
                    2};
        case EventKind::Work: {
            return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                          "%1 spends %2 ms outside the database: %3."))
                        .arg(w)
                        .arg(e.fields.number("ms"))
                        .arg(e.fields.phrase("what").translated()),
                    2};
        }
        case EventKind::Pause:
            return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                          "%1 freezes for %2 ms (a long garbage-collection "
                                          "pause, a stalled virtual machine) while it still "
                                          "believes it holds its lease."))
                        .arg(w)
                        .arg(e.fields.number("ms")),
                    3};
        case EventKind::Resume:
            return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                          "%1 wakes up after %2 ms and carries on, unaware of "
                                          "the time it lost."))
                        .arg(w)
                        .arg(e.fields.number("paused_ms")),
                    3};
        case EventKind::Crash:
            transactions_.follow(e);  // a server rolls its transaction back (sayDropped)
            return {crashSentence(w, e.fields.text("point")), 3};
        case EventKind::Alert:
            return {
                SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                      "Alert: %1 seen again (count: %2). Monitoring cannot stop "
                                      "a duplicate, it only tells someone to look."))
                    .arg(e.fields.text("key"))
                    .arg(e.fields.number("count")),
                3};
        case EventKind::Effect: {
            const qint64 count = e.fields.number("count");
            const qint64 expected = e.fields.number("expected");
            const QString what = quoted(e.fields.text("effect"));
            const QString intent =
                SAY(QT_TRANSLATE_NOOP("idem::Narration", "intent %1")).arg(e.intent + 1);
            if (count == expected)
                return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                              "The judge counts %1 × %2 for %3, as expected."))
                            .arg(count)
                            .arg(what, intent),
                        3};
            if (count > expected)
                return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                              "The judge counts %1 × %2 for %3 where %4 was "
                                              "expected: %5 too many."))
                            .arg(count)
                            .arg(what, intent)
                            .arg(expected)
                            .arg(count - expected),
                        3};
            return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                          "The judge counts %1 × %2 for %3 where %4 was "
                                          "expected: %5 missing."))
                        .arg(count)
                        .arg(what, intent)
                        .arg(expected)
                        .arg(expected - count),
                    3};
        }
        case EventKind::Verdict:
            return {verdictSentence(e), 3};
        case EventKind::Locks:
            return {};  // the Locks view shows them
        case EventKind::Tables:
            return {};  // the table views show them
    }
    return {};
}

}  // namespace idem
