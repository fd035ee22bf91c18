// The captions of what a run's code decided and answered: a guard's
// decision, an entity's move from state to state (or its refusal), an
// answer to the caller, and a scenario's own notes in its own words.
#include "narration.h"

#include "names.h"
#include "narrationtext.h"
#include "phrase.h"
#include "scenariowords.h"
#include "traceevent.h"

namespace idem {

using namespace narration;

Narrator::Said Narrator::sayGuard(const TraceEvent& e) {
    const QString w = who(e);
    const QString guard = words_->guardName(e.fields.text("guard"));
    const QString decision = e.fields.text("decision");
    static const QHash<QString, const char*> sentences{
        {"claimed", QT_TRANSLATE_NOOP("idem::Narration",
                                      "%1 is the first to claim the request (%2): it may do the "
                                      "work.")},
        {"duplicate", QT_TRANSLATE_NOOP("idem::Narration",
                                        "The %2 recognises %1 as a repeat: it gets the stored "
                                        "result instead of doing the work again.")},
        {"in-progress", QT_TRANSLATE_NOOP("idem::Narration",
                                          "%1 finds the request still being processed (%2): it "
                                          "is told to ask again later, and does nothing.")},
        {"retention-expired", QT_TRANSLATE_NOOP("idem::Narration",
                                                "The %2 no longer remembers this request, its "
                                                "retention ran out: %1 looks new.")},
        {"takeover", QT_TRANSLATE_NOOP("idem::Narration",
                                       "%1 takes the request over (%2): the owner's record is "
                                       "older than the expiry, so the owner is presumed dead.")},
        {"recheck-found", QT_TRANSLATE_NOOP("idem::Narration",
                                            "Before doing anything, %1 looks in the business "
                                            "table: the work is already there, so it only "
                                            "repairs the guard record.")},
        {"recheck-not-found", QT_TRANSLATE_NOOP("idem::Narration",
                                                "%1 looks in the business table: the work is "
                                                "not there, so it is safe to do it.")},
        {"marked-success", QT_TRANSLATE_NOOP("idem::Narration",
                                             "%1 marks its guard record done: every later repeat "
                                             "gets this result.")},
        {"not-owner", QT_TRANSLATE_NOOP("idem::Narration",
                                        "%1 is no longer the owner (%2): another attempt took "
                                        "over, so its update is refused.")},
        {"done", QT_TRANSLATE_NOOP("idem::Narration",
                                   "%1 finds the work already done (%2) and does not repeat it.")},
        {"accepted", QT_TRANSLATE_NOOP("idem::Narration", "The %2 lets %1 through.")},
        {"rejected", QT_TRANSLATE_NOOP("idem::Narration", "The %2 turns %1 away.")},
        {"acquired", QT_TRANSLATE_NOOP("idem::Narration", "%1 acquires the %2.")},
        {"held", QT_TRANSLATE_NOOP("idem::Narration",
                                   "%1 finds the %2 held by another process and backs off.")},
        {"released", QT_TRANSLATE_NOOP("idem::Narration", "%1 releases the %2.")},
        {"lease-lost", QT_TRANSLATE_NOOP("idem::Narration",
                                         "%1's lease has run out: the %2 now belongs to another "
                                         "process, and its fencing token is stale.")},
        {"set", QT_TRANSLATE_NOOP("idem::Narration",
                                  "%1 sets the %2: repeats within its lifetime are turned "
                                  "away.")},
        {"result-stored", QT_TRANSLATE_NOOP("idem::Narration",
                                            "%1 stores its result with the %2: a repeat gets it "
                                            "back.")},
        {"expired-before-store", QT_TRANSLATE_NOOP("idem::Narration",
                                                   "The %2 expired before %1 stored its result: "
                                                   "a repeat arriving now looks new.")},
        {"inserted", QT_TRANSLATE_NOOP("idem::Narration", "%1 records the request (%2).")},
        {"found", QT_TRANSLATE_NOOP("idem::Narration",
                                    "%1 finds the request already recorded (%2): a repeat.")},
        {"not-found", QT_TRANSLATE_NOOP("idem::Narration",
                                        "%1 finds no record (%2) and believes it is the first; "
                                        "between this check and its insert, another attempt "
                                        "can do the same.")},
        {"read",
         QT_TRANSLATE_NOOP("idem::Narration", "%1 reads the row and its version number (%2).")},
        {"conflict", QT_TRANSLATE_NOOP("idem::Narration",
                                       "%1's version no longer matches (%2): someone changed the "
                                       "row since it was read, so its update changes nothing.")},
        {"raised", QT_TRANSLATE_NOOP("idem::Narration",
                                     "The %2 fires: the count of repeats crossed its threshold.")},
        {"already-raised", QT_TRANSLATE_NOOP("idem::Narration",
                                             "The %2 already fired for this key: no second "
                                             "alert.")},
        {"below-threshold",
         QT_TRANSLATE_NOOP("idem::Narration", "The %2 counts %1, still below its threshold.")},
        {"normal-repeat",
         QT_TRANSLATE_NOOP("idem::Narration", "The %2 sees %1 as an ordinary repeat.")},
        {"marked-failed", QT_TRANSLATE_NOOP("idem::Narration",
                                            "%1 marks its guard record failed: a retry may claim "
                                            "it again.")},
        {"key-reused", QT_TRANSLATE_NOOP("idem::Narration",
                                         "%1 reuses the key with a different payload: refused, "
                                         "a key names one request only.")},
    };
    // What a failed record means depends on the variant: taken over at any
    // age, or kept as the answer for good.
    const bool failedRecord = e.fields.text("status") == QLatin1String("FAILED");
    if (decision == QLatin1String("takeover") && failedRecord)
        return {fill(SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                           "%1 takes the request over (%2): its record says the "
                                           "last try failed, so a new try may do the work.")),
                     {w, guard}),
                3};
    if (decision == QLatin1String("marked-failed") && e.fields.flag("final")) {
        storedErrors_.insert(e.intent);
        return {fill(SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                           "%1 marks its guard record failed and keeps the error "
                                           "as the answer: every repeat, retries included, will "
                                           "get this error.")),
                     {w, guard}),
                3};
    }
    if (decision == QLatin1String("duplicate") && failedRecord)
        return {fill(SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                           "The %2 recognises %1 as a repeat and gives it the "
                                           "stored answer: the first try's error, though the "
                                           "work was never done.")),
                     {w, guard}),
                3};
    if (const DecisionWords* own = words_->decision(decision); own && !own->sentence.isEmpty())
        return {fill(translated(own->sentence), {w, guard}), 3};
    const char* source = sentences.value(decision);
    if (source)
        return {fill(SAY(source), {w, guard}), 3};
    return {SAY(QT_TRANSLATE_NOOP("idem::Narration", "%1, %2: %3."))
                .arg(w, guard, words_->decisionName(decision)),
            3};
}

Narrator::Said Narrator::sayTransition(const TraceEvent& e) {
    const QString w = who(e);
    const QString entity = e.fields.text("entity");
    const QString from = e.fields.text("from_state");
    const QString to = e.fields.text("to_state");
    const qint16 connection = transactions_.latest();
    const QString before = stateSeenBy(connection, entity);
    const bool accepted = e.fields.flag("accepted");
    const bool held = transactions_.latestOpen();
    // The move counts for everyone only once its transaction commits.
    auto record = [&](const QString& state) {
        if (held)
            pendingStates_[connection].insert(entity, state);
        else if (state.isEmpty())
            states_.remove(entity);
        else
            states_.insert(entity, state);
    };
    if (!accepted && from.isEmpty())
        return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                      "%1 cannot record %2 as %3: the record exists already (%4)."))
                    .arg(w, entity, to, before),
                2};
    if (!accepted && from == to)
        return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                      "%1 tries to take %2 over, but another attempt got there "
                                      "first: its conditional UPDATE changes 0 rows."))
                    .arg(w, entity),
                2};
    if (!accepted) {
        const QString statement = lastStatement_.value(attemptKey(e));
        return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                      "%1 cannot move %2 from %3 to %4: it is %5 now, so the "
                                      "conditional %6 changes 0 rows and the state stays."))
                    .arg(w, entity, from, to, before.isEmpty() ? from : before,
                         statement.isEmpty() ? QStringLiteral("UPDATE") : statement),
                3};
    }
    if (to.isEmpty()) {
        record(QString());
        return {SAY(QT_TRANSLATE_NOOP("idem::Narration", "%1 (%2) is gone.")).arg(entity, before),
                3};
    }
    record(to);
    if (from == to)
        return {
            SAY(QT_TRANSLATE_NOOP("idem::Narration", "%1 now holds %2 (%3).")).arg(w, entity, to),
            1};
    if (from.isEmpty() || (before.isEmpty() && from == QLatin1String("*")))
        return {SAY(QT_TRANSLATE_NOOP("idem::Narration", "%1 starts %2 in state %3."))
                    .arg(w, entity, to),
                2};
    if (from == QLatin1String("*")) {
        if (before == to)
            return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                          "%1 sets %2 to %3 without looking at its state: it "
                                          "was %3 already, and the change is made a second "
                                          "time."))
                        .arg(w, entity, to),
                    3};
        return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                      "%1 sets %2 to %3 without looking at its state (it was "
                                      "%4)."))
                    .arg(w, entity, to, before),
                3};
    }
    return {SAY(QT_TRANSLATE_NOOP("idem::Narration", "%1 moves %2 from %3 to %4."))
                .arg(w, entity, from, to),
            3};
}

QString Narrator::answeredError(const TraceEvent& response, const QString& result) const {
    const auto refusal = serverRefusals_.constFind(attemptKey(response));
    if (refusal == serverRefusals_.cend() || !result.contains(refusal->words))
        return result;
    // What the server's words mean, in the reader's language, with its
    // code (its own words, what a log in production shows, are in the SQL
    // log). A wait the lab cancelled is answered by the cancel, not by a
    // timeout of the server's: said to be.
    const char* meaning =
        refusal->outcome == SqlOutcome::Deadlock
            ? QT_TRANSLATE_NOOP("idem::Narration", "a deadlock, the server's error %1")
        : refusal->outcome == SqlOutcome::SerializationFailure
            ? QT_TRANSLATE_NOOP("idem::Narration", "a serialization failure, the server's error %1")
        : refusal->cancelledByLab
            ? QT_TRANSLATE_NOOP("idem::Narration",
                                "a lock wait that the lab cancelled as a lock timeout would, "
                                "answered by the server with error %1")
            : QT_TRANSLATE_NOOP("idem::Narration", "a lock timeout, the server's error %1");
    return SAY(meaning).arg(refusal->code);
}

Narrator::Said Narrator::sayResponse(const TraceEvent& e) {
    const QString w = who(e);
    const QString receiver = words_->actorName(e.fields.text("receiver"));
    const QString response = e.fields.text("response");
    const QString result = e.fields.phrase("result").translated();
    const QString answer = result.isEmpty() ? responseName(response)
                                            : SAY(QT_TRANSLATE_NOOP("idem::Narration", "%1 (%2)"))
                                                  .arg(responseName(response), result);
    if (response == QLatin1String("none"))
        return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                      "The %2 gets no answer for %1: it cannot tell whether the "
                                      "request took effect."))
                    .arg(w, receiver),
                3};
    if (e.fields.flag("lost"))
        return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                      "%1 answers %2, but the answer is lost on the way: the "
                                      "%3 never learns it."))
                    .arg(w, answer, receiver),
                3};
    if (response == QLatin1String("in-progress"))
        return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                      "%1 answers the %2: still in progress, ask again later."))
                    .arg(w, receiver),
                3};
    if (response == QLatin1String("error") && storedErrors_.contains(e.intent))
        return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                      "%1 answers the %2 with the stored error%3: nothing was "
                                      "done, and a retry will get the same error."))
                    .arg(w, receiver,
                         result.isEmpty() ? QString()
                                          : SAY(QT_TRANSLATE_NOOP("idem::Narration", " (%1)"))
                                                .arg(answeredError(e, result))),
                3};
    if (response == QLatin1String("error"))
        return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                      "%1 answers the %2 with an error%3: nothing was done, a "
                                      "retry is welcome."))
                    .arg(w, receiver,
                         result.isEmpty() ? QString()
                                          : SAY(QT_TRANSLATE_NOOP("idem::Narration", " (%1)"))
                                                .arg(answeredError(e, result))),
                3};
    if (failedUnhandled_.remove(attemptKey(e)) && response == QLatin1String("success"))
        return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                      "%1 ignores its failed statement, carries on as if it had "
                                      "worked and answers the %2: %3."))
                    .arg(w, receiver, answer),
                3};
    return {SAY(QT_TRANSLATE_NOOP("idem::Narration", "%1 answers the %2: %3."))
                .arg(w, receiver, answer),
            3};
}

Narrator::Said Narrator::sayNote(const TraceEvent& e) {
    // A note is a scenario's own event: its caption is the scenario's.
    const NoteWords* words = words_->note(e);
    if (!words)
        return {};
    const Fields& f = e.fields;
    std::vector<Phrase> args;
    for (const NoteArg& arg : words->args) {
        switch (arg.from) {
            case NoteArg::From::Field:
                args.emplace_back(f.text(arg.key));
                break;
            case NoteArg::From::FieldActor:
                args.emplace_back(words_->actorName(f.text(arg.key)));
                break;
            case NoteArg::From::FieldPhrase:
                args.emplace_back(f.phrase(arg.key).translated());
                break;
            case NoteArg::From::Actor:
                args.emplace_back(words_->actorName(e.actorName()));
                break;
            case NoteArg::From::Who:
                args.emplace_back(who(e));
                break;
        }
    }
    return {translated(words->caption.with(std::move(args))), 3};
}

}  // namespace idem
