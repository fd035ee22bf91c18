#include "narration.h"

#include "names.h"
#include "scenariowords.h"
#include "traceevent.h"
#include "tracewords.h"
#include "vocabulary.h"

#include <QMutex>
#include <QRegularExpression>

namespace idem {

namespace {

// A step that did many things is told by its first few sentences.
constexpr int kSentencesPerStep = 3;

// SQLite's extended codes for a violated UNIQUE or PRIMARY KEY constraint.
constexpr int kUniqueViolation = 2067;
constexpr int kPrimaryKeyViolation = 1555;

QMutex untranslatedLock;
QSet<QString> untranslatedSources;

// Whether a translation is installed: the names of the vocabulary are always
// translated when one is.
bool translating() {
    return responseName(QStringLiteral("success")) != QLatin1String("success");
}

qint64 attemptKey(const TraceEvent& e) {
    return qint64(e.intent) * 1'000'000 + e.attempt;
}

// A statement without its common table expressions: `WITH n AS (...)
// INSERT INTO t ...` is an INSERT into t. The main statement is the first
// word outside the parentheses after WITH's names.
QString mainStatement(const QString& sql) {
    const QString trimmed = sql.trimmed();
    if (!trimmed.startsWith(QLatin1String("WITH"), Qt::CaseInsensitive))
        return trimmed;
    static const QRegularExpression verb(QStringLiteral(R"(^(INSERT|UPDATE|DELETE|SELECT)\b)"),
                                         QRegularExpression::CaseInsensitiveOption);
    int depth = 0;
    for (qsizetype i = 4; i < trimmed.size(); ++i) {
        const QChar c = trimmed.at(i);
        if (c == QLatin1Char('('))
            ++depth;
        else if (c == QLatin1Char(')'))
            --depth;
        else if (depth == 0 && c.isLetter() && !trimmed.at(i - 1).isLetterOrNumber() &&
                 trimmed.mid(i).contains(verb))
            return trimmed.mid(i);
    }
    return trimmed;
}

// The table a statement works on: INSERT INTO t, UPDATE t, DELETE FROM t,
// SELECT … FROM t; empty for anything else.
QString tableOf(const QString& sql) {
    static const QRegularExpression pattern(
        QStringLiteral(
            R"(^\s*(?:INSERT\s+(?:OR\s+\w+\s+)?INTO|UPDATE|DELETE\s+FROM|SELECT\b.*?\bFROM)\s+(\w+))"),
        QRegularExpression::CaseInsensitiveOption | QRegularExpression::DotMatchesEverythingOption);
    const QRegularExpressionMatch m = pattern.match(sql);
    return m.hasMatch() ? m.captured(1) : QString();
}

QString verbOf(const QString& sql) {
    const QString trimmed = sql.trimmed();
    // MariaDB's START TRANSACTION is BEGIN as the captions tell it.
    if (trimmed.startsWith(QLatin1String("START TRANSACTION"), Qt::CaseInsensitive))
        return QStringLiteral("BEGIN");
    const qsizetype end = trimmed.indexOf(QRegularExpression(QStringLiteral("\\s")));
    return (end < 0 ? trimmed : trimmed.left(end)).toUpper();
}

// Puts `args` in the place of %1, %2 … of `text`; unlike QString::arg, a
// sentence may leave out any of them (one decision's sentence names the
// guard, another does not).
QString fill(const QString& text, std::initializer_list<QString> args) {
    QString out;
    out.reserve(text.size() + 32);
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (c == QLatin1Char('%') && i + 1 < text.size() && text.at(i + 1).isDigit()) {
            const qsizetype n = text.at(i + 1).digitValue();
            if (n >= 1 && n <= qsizetype(args.size())) {
                out += *(args.begin() + (n - 1));
                ++i;
                continue;
            }
        }
        out += c;
    }
    return out;
}

// Sentences one after the other: a space after an English full stop, none
// after a Chinese one (。 takes its own room).
QString joinSentences(const QStringList& sentences) {
    QString text;
    for (const QString& s : sentences) {
        if (s.isEmpty())
            continue;
        if (!text.isEmpty() && !text.endsWith(QChar(0x3002)) && !text.endsWith(QChar(0xFF09)) &&
            !text.endsWith(QChar(0xFF01)) && !text.endsWith(QChar(0xFF1F)))
            text += QLatin1Char(' ');
        text += s;
    }
    return text;
}

QString quoted(const QString& name) {
    return QStringLiteral("`%1`").arg(name);
}

}  // namespace

Narrator::Narrator(int intents, const ScenarioWords* words)
    : intents_(intents), words_(words ? words : &ScenarioWords::none()) {}

void Narrator::reset() {
    attemptKinds_.clear();
    rows_.clear();
    pendingRows_.clear();
    uncounted_.clear();
    states_.clear();
    pendingStates_.clear();
    transactions_.clear();
    guarded_.clear();
    lastStatement_.clear();
    retries_.clear();
    retryAfter_.clear();
    storedErrors_.clear();
    inserters_.clear();
    failedUnhandled_.clear();
    sessions_.clear();
}

QStringList Narrator::untranslated() {
    QMutexLocker lock(&untranslatedLock);
    QStringList list(untranslatedSources.begin(), untranslatedSources.end());
    untranslatedSources.clear();
    list.sort();
    return list;
}

// Every caption template goes through here, so that a test can tell which
// ones lack a translation.
#define SAY(source) translated(source)

namespace {

QString translated(const char* source) {
    const QString text = QCoreApplication::translate("idem::Narration", source);
    if (text == QLatin1String(source) && translating()) {
        QMutexLocker lock(&untranslatedLock);
        untranslatedSources.insert(QString::fromUtf8(source));
    }
    return text;
}

// A scenario's caption, in its own context, kept track of as SAY does.
QString translated(const Phrase& caption) {
    if (caption.source() && translating() &&
        QCoreApplication::translate(caption.context(), caption.source()) ==
            QLatin1String(caption.source())) {
        QMutexLocker lock(&untranslatedLock);
        untranslatedSources.insert(QString::fromUtf8(caption.source()));
    }
    return caption.translated();
}

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

QString Narrator::who(const AttemptRef& a) const {
    const QString actor = nameOf(a.actor);
    if (a.attempt < 0) {
        // A helper numbered apart from the requests: "the outbox relay R2".
        const QString name = words_->actorName(actor);
        const QString tag = processTag(a.attempt, actor);
        if (intents_ > 1)
            return SAY(QT_TRANSLATE_NOOP("idem::Narration", "intent %1, the %2 %3"))
                .arg(a.intent + 1)
                .arg(name, tag);
        return SAY(QT_TRANSLATE_NOOP("idem::Narration", "the %1 %2")).arg(name, tag);
    }
    if (a.attempt == 0)
        return SAY(QT_TRANSLATE_NOOP("idem::Narration", "the %1")).arg(words_->actorName(actor));
    if (intents_ > 1)
        return SAY(QT_TRANSLATE_NOOP("idem::Narration", "intent %1, #%2"))
            .arg(a.intent + 1)
            .arg(a.attempt);
    return QStringLiteral("#%1").arg(a.attempt);
}

QString Narrator::who(const TraceEvent& e) const {
    return who(AttemptRef{e.intent, e.attempt, e.actor});
}

QString Narrator::setupCaption(qsizetype statements) const {
    return SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                 "Set-up: %1 statements create the tables and the rows the "
                                 "scenario starts from. Nothing has been sent yet."))
        .arg(statements);
}

QString Narrator::narrate(const QList<TraceEvent>& events, qsizetype from, qsizetype to) {
    QList<Said> said;
    qsizetype setup = 0;
    for (qsizetype i = from; i < to && i < events.size(); ++i) {
        const TraceEvent& e = events.at(i);
        if (e.isSetup() || (e.attempt == 0 && e.is(EventKind::Transition) && e.intent >= 0 &&
                            e.actorName() != QLatin1String("judge") && setup > 0)) {
            say(e);  // remembered (states, rows), told as one sentence
            ++setup;
            continue;
        }
        said << say(e);
    }
    if (said.isEmpty())
        return setup > 0 ? setupCaption(setup) : QString();
    int top = 0;
    for (const Said& s : said) top = std::max(top, s.weight);
    // A step is told by its most telling events: a statement whose meaning
    // a guard decision or a state change of the same step says better is
    // left out.
    QStringList sentences;
    int left = 0;
    for (const Said& s : said) {
        if (s.text.isEmpty() || s.weight < top)
            continue;
        if (sentences.contains(s.text))
            continue;
        if (sentences.size() == kSentencesPerStep) {
            ++left;
            continue;
        }
        sentences << s.text;
    }
    if (left > 0)
        sentences << SAY(QT_TRANSLATE_NOOP("idem::Narration", "(and %1 more)")).arg(left);
    if (setup > 0)
        sentences.prepend(setupCaption(setup));
    return joinSentences(sentences);
}

QString Narrator::caption(const TraceEvent& e) {
    return say(e).text;
}

Narrator::Said Narrator::say(const TraceEvent& e) {
    Said said = sayPlain(e);
    // Chinese set against a Latin word keeps a space before it ("应答 TCC
    // 协调者"), as the translations write it where the word is their own.
    static const QRegularExpression kHanThenLatin(
        QStringLiteral("([\\x{4e00}-\\x{9fff}])([A-Za-z])"));
    if (said.text.contains(kHanThenLatin))
        said.text.replace(kHanThenLatin, QStringLiteral("\\1 \\2"));
    // "the relay opens …": a sentence starts with a capital.
    if (!said.text.isEmpty() && said.text.front().isLower())
        said.text.front() = said.text.front().toUpper();
    return said;
}

Narrator::Said Narrator::sayPlain(const TraceEvent& e) {
    const QString w = who(e);
    switch (e.kind) {
        case EventKind::Sql:
            sessions_.follow(e);
            return saySql(e);
        case EventKind::Guard:
            guarded_.insert(e.intent);
            return sayGuard(e);
        case EventKind::Transition: {
            Said said = sayTransition(e);
            if (e.fields.flag("accepted") && transactions_.latestOpen())
                said.text = joinSentences(
                    {said.text, SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                                      "Not yet committed: nobody else sees it."))});
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
            return {crashSentence(w, e.fields.text("point")), 3};
        case EventKind::Alert:
            return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                          "Alert: %1 was seen %2 times. Monitoring cannot stop a "
                                          "duplicate, it only tells someone to look."))
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
    }
    return {};
}

qint64 Narrator::committedRows(const QString& table) const {
    if (uncounted_.contains(table))
        return -1;
    qint64 rows = 0;
    const QString suffix = QLatin1Char('/') + table;
    for (auto it = rows_.cbegin(); it != rows_.cend(); ++it) {
        if (it.key().endsWith(suffix))
            rows += it.value();
    }
    return rows;
}

QStringList Narrator::countedTables() const {
    QSet<QString> tables;
    for (auto it = rows_.cbegin(); it != rows_.cend(); ++it)
        tables.insert(it.key().section(QLatin1Char('/'), 1));
    for (const QString& t : uncounted_) tables.remove(t);
    QStringList list(tables.begin(), tables.end());
    list.sort();
    return list;
}

QString Narrator::writtenIn(qint16 connection) const {
    QStringList parts;
    QMap<QString, qint64> byTable;  // sorted: the same words every time
    const QHash<QString, qint64> rows = pendingRows_.value(connection);
    for (auto it = rows.cbegin(); it != rows.cend(); ++it)
        byTable[it.key().section(QLatin1Char('/'), 1)] += it.value();
    for (auto it = byTable.cbegin(); it != byTable.cend(); ++it) {
        const QString table = quoted(it.key());
        if (it.value() == 1)
            parts << SAY(QT_TRANSLATE_NOOP("idem::Narration", "one %1 row")).arg(table);
        else if (it.value() > 1)
            parts << SAY(QT_TRANSLATE_NOOP("idem::Narration", "%1 %2 rows"))
                         .arg(it.value())
                         .arg(table);
        else if (it.value() < 0)
            parts << SAY(QT_TRANSLATE_NOOP("idem::Narration", "the deletion of %1 %2 row(s)"))
                         .arg(-it.value())
                         .arg(table);
    }
    QMap<QString, QString> moves;
    const QHash<QString, QString> states = pendingStates_.value(connection);
    for (auto it = states.cbegin(); it != states.cend(); ++it) moves.insert(it.key(), it.value());
    for (auto it = moves.cbegin(); it != moves.cend(); ++it) {
        if (it.value().isEmpty())
            parts << SAY(QT_TRANSLATE_NOOP("idem::Narration", "the removal of %1")).arg(it.key());
        else
            parts << SAY(QT_TRANSLATE_NOOP("idem::Narration", "the move of %1 to %2"))
                         .arg(it.key(), it.value());
    }
    return parts.join(SAY(QT_TRANSLATE_NOOP("idem::Narration", ", ")));
}

void Narrator::settle(qint16 connection, bool committed) {
    const QHash<QString, qint64> rows = pendingRows_.take(connection);
    const QHash<QString, QString> states = pendingStates_.take(connection);
    if (!committed)
        return;
    for (auto it = rows.cbegin(); it != rows.cend(); ++it) rows_[it.key()] += it.value();
    for (auto it = states.cbegin(); it != states.cend(); ++it) {
        if (it.value().isEmpty())
            states_.remove(it.key());
        else
            states_.insert(it.key(), it.value());
    }
}

QString Narrator::stateSeenBy(qint16 connection, const QString& entity) const {
    const auto own = pendingStates_.constFind(connection);
    if (own != pendingStates_.constEnd() && own->contains(entity))
        return own->value(entity);
    return states_.value(entity);
}

Narrator::Said Narrator::sayLockWait(const TraceEvent& e) {
    const QString lock = e.fields.text("lock");
    QStringList holders;
    for (const AttemptRef& a : sessions_.holders(e)) holders << who(a);
    if (holders.isEmpty())
        holders << SAY(QT_TRANSLATE_NOOP("idem::Narration", "another transaction"));
    const QString held = holders.join(SAY(QT_TRANSLATE_NOOP("idem::Narration", ", ")));
    const QString name = lockName(lock);
    const bool onIndex = lock.contains(QLatin1String(" index "));
    // The verb agrees with the holders: "#1 holds", "#2, #3 hold".
    const bool one = holders.size() == 1;
    const char* sentence =
        !onIndex ? (one ? QT_TRANSLATE_NOOP("idem::Narration",
                                            "%1 waits for a lock %2 holds (%3): its statement "
                                            "goes on when that transaction ends.")
                        : QT_TRANSLATE_NOOP("idem::Narration",
                                            "%1 waits for a lock %2 hold (%3): its statement "
                                            "goes on when their transactions end."))
        : isGapLock(lock)
            ? (one ? QT_TRANSLATE_NOOP("idem::Narration",
                                       "%1 waits for the gap lock %2 holds on %3: a locking read "
                                       "of a key that is not there locks the place where it "
                                       "would go.")
                   : QT_TRANSLATE_NOOP("idem::Narration",
                                       "%1 waits for the gap lock %2 hold on %3: a locking read "
                                       "of a key that is not there locks the place where it "
                                       "would go."))
        : one ? QT_TRANSLATE_NOOP("idem::Narration", "%1 waits for the lock %2 holds on %3.")
              : QT_TRANSLATE_NOOP("idem::Narration", "%1 waits for the lock %2 hold on %3.");
    return {SAY(sentence).arg(who(e), held, name), 3};
}

Narrator::Said Narrator::saySql(const TraceEvent& e) {
    const QString w = who(e);
    const QString statement = mainStatement(e.sql);
    const QString verb = verbOf(statement);
    const QString table = tableOf(statement);
    const qint64 key = attemptKey(e);
    const qint16 connection = e.connection;
    // What the transaction holds is read before this statement ends it.
    const QString written = writtenIn(connection);
    const TxChange change = transactions_.follow(e);
    const bool inTransaction = transactions_.isOpen(connection);
    lastStatement_.insert(key,
                          verb == QLatin1String("SELECT") ? verb : verb + QLatin1Char(' ') + table);
    // Rows are counted for every statement, set-up included: the count a
    // caption says is the table's.
    const QString slot = QStringLiteral("%1/%2").arg(e.intent).arg(table);
    const qint64 committedBefore = rows_.value(slot);
    const qint64 before = committedBefore + pendingRows_.value(connection).value(slot);
    const bool upsert = e.sql.contains(QLatin1String("ON CONFLICT"), Qt::CaseInsensitive) &&
                        e.sql.contains(QLatin1String("DO UPDATE"), Qt::CaseInsensitive);
    const qint32 inserter = inserters_.value(slot, 0);
    const bool ownRows = inserter == e.attempt;
    qint64 delta = 0;
    if (!e.failed() && !table.isEmpty() && e.rows > 0) {
        if (verb == QLatin1String("INSERT") && upsert)
            uncounted_.insert(table);
        else if (verb == QLatin1String("INSERT"))
            delta = e.rows;
        if (verb == QLatin1String("INSERT"))
            inserters_.insert(slot, inserter == 0 || ownRows ? e.attempt : -1);
        else if (verb == QLatin1String("DELETE"))
            delta = -e.rows;
    }
    if (delta != 0) {
        if (inTransaction)
            pendingRows_[connection][slot] += delta;
        else
            rows_[slot] += delta;
    }
    // The rows a commit makes repeats of (a request's second `ledger` row):
    // the moment a duplicate becomes real, for everyone.
    QStringList repeats;
    if (change == TxChange::Committed && !guarded_.contains(e.intent)) {
        QMap<QString, qint64> total;
        const QHash<QString, qint64> held = pendingRows_.value(connection);
        for (auto it = held.cbegin(); it != held.cend(); ++it) {
            const qint64 now = rows_.value(it.key()) + it.value();
            if (it.value() > 0 && now > 1 && !it.key().startsWith(QLatin1String("-1/")))
                total[it.key().section(QLatin1Char('/'), 1)] += now;
        }
        for (auto it = total.cbegin(); it != total.cend(); ++it)
            repeats << SAY(QT_TRANSLATE_NOOP("idem::Narration", "%1 %2 rows"))
                           .arg(it.value())
                           .arg(quoted(it.key()));
    }
    if (change == TxChange::Committed || change == TxChange::RolledBack)
        settle(connection, change == TxChange::Committed);

    if (e.isSetup())
        return {SAY(QT_TRANSLATE_NOOP("idem::Narration", "Set-up: %1.")).arg(verb), 0};
    if (e.fields.text("cause") == QLatin1String("crash")) {
        if (written.isEmpty())
            return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                          "The database rolls back the open transaction of the "
                                          "process that died: nothing it wrote there survives.")),
                    3};
        return {
            SAY(QT_TRANSLATE_NOOP("idem::Narration", "Nothing of its open transaction stays: %1."))
                .arg(written),
            3};
    }
    if (e.failed()) {
        const SqlOutcome outcome = e.outcome();
        if (outcome == SqlOutcome::Deadlock) {
            if (e.attempt > 0)
                failedUnhandled_.insert(attemptKey(e));
            return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                          "Deadlock: the server rolled back %1's transaction. "
                                          "%1 is the victim the server chose to break the cycle "
                                          "of transactions waiting for each other; the others "
                                          "go on."))
                        .arg(w),
                    3};
        }
        if (outcome == SqlOutcome::SerializationFailure) {
            if (e.attempt > 0)
                failedUnhandled_.insert(attemptKey(e));
            return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                          "Serialization failure: the server refuses %1's %2, "
                                          "which no one-at-a-time order of the transactions "
                                          "running beside it could give, and rolls %1's "
                                          "transaction back."))
                        .arg(w, verb),
                    3};
        }
        if (outcome == SqlOutcome::LockTimeout) {
            if (e.attempt > 0)
                failedUnhandled_.insert(attemptKey(e));
            return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                          "%1 gives up waiting for the lock (lock timeout): its "
                                          "%2 did not run."))
                        .arg(w, verb),
                    3};
        }
        if (outcome == SqlOutcome::UniqueViolation)
            return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                          "The database refuses %1's insert into %2: %3. The "
                                          "unique key stops the repeat, whatever the code "
                                          "above it did."))
                        .arg(w, quoted(table), e.error),
                    3};
        if (e.attempt > 0)
            failedUnhandled_.insert(attemptKey(e));
        return {SAY(QT_TRANSLATE_NOOP("idem::Narration", "%1's statement fails: %2."))
                    .arg(w, e.errorText()),
                3};
    }
    // A statement after a failure (not the end of the transaction) is the
    // code handling it.
    if (verb != QLatin1String("COMMIT") && verb != QLatin1String("END") &&
        verb != QLatin1String("ROLLBACK"))
        failedUnhandled_.remove(attemptKey(e));
    if (verb == QLatin1String("BEGIN"))
        return {SAY(QT_TRANSLATE_NOOP("idem::Narration", "%1 opens a transaction.")).arg(w), 1};
    if (change == TxChange::Committed) {
        if (written.isEmpty())
            return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                          "%1 commits: what it wrote is now visible to "
                                          "everyone."))
                        .arg(w),
                    1};
        if (!repeats.isEmpty())
            return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                          "%1 commits: the database now holds %2 for this "
                                          "request."))
                        .arg(w, repeats.join(SAY(QT_TRANSLATE_NOOP("idem::Narration", ", ")))),
                    2};
        return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                      "%1 commits: %2 — now in the database for everyone."))
                    .arg(w, written),
                2};
    }
    if (change == TxChange::RolledBack) {
        if (written.isEmpty())
            return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                          "%1 rolls its transaction back: nothing of it "
                                          "stays."))
                        .arg(w),
                    2};
        return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                      "%1 rolls its transaction back: %2 — none of it stays."))
                    .arg(w, written),
                3};
    }
    if (verb == QLatin1String("INSERT")) {
        if (e.rows == 0)
            return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                          "%1's insert into %2 adds nothing: the row is already "
                                          "there."))
                        .arg(w, quoted(table)),
                    2};
        if (upsert)
            return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                          "%1 writes its row of %2: a new one, or the one "
                                          "there updated."))
                        .arg(w, quoted(table)),
                    1};
        if (e.rows > 1)
            return {(inTransaction
                         ? SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                                 "%1 inserts %2 rows into %3, not "
                                                 "yet committed."))
                         : SAY(QT_TRANSLATE_NOOP("idem::Narration", "%1 inserts %2 rows into %3.")))
                        .arg(w)
                        .arg(e.rows)
                        .arg(quoted(table)),
                    1};
        if (before == 0 || e.attempt <= 0 || ownRows)
            return {(inTransaction
                         ? SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                                 "%1 inserts a row into %2, not yet "
                                                 "committed."))
                         : SAY(QT_TRANSLATE_NOOP("idem::Narration", "%1 inserts a row into %2.")))
                        .arg(w, quoted(table)),
                    1};
        const bool unguarded = !guarded_.contains(e.intent);
        if (inTransaction)
            return {(unguarded ? SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                                       "%1 inserts another %2 row for the same "
                                                       "request, not yet committed: if it "
                                                       "commits there will be %3 of them, and "
                                                       "nothing checks for a repeat."))
                               : SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                                       "%1 inserts another %2 row for the same "
                                                       "request, not yet committed: if it "
                                                       "commits there will be %3 of them.")))
                        .arg(w, quoted(table))
                        .arg(before + e.rows),
                    unguarded ? 3 : 2};
        return {(unguarded ? SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                                   "%1 inserts another %2 row for the same "
                                                   "request, now %3 of them: nothing checks for "
                                                   "a repeat."))
                           : SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                                   "%1 inserts another %2 row for the same "
                                                   "request, now %3 of them.")))
                    .arg(w, quoted(table))
                    .arg(before + e.rows),
                unguarded ? 3 : 2};
    }
    if (verb == QLatin1String("UPDATE")) {
        if (e.rows == 0)
            return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                          "%1's UPDATE of %2 changes no row: its WHERE "
                                          "condition no longer holds."))
                        .arg(w, quoted(table)),
                    2};
        return {SAY(QT_TRANSLATE_NOOP("idem::Narration", "%1 updates %2 row(s) of %3."))
                    .arg(w)
                    .arg(e.rows)
                    .arg(quoted(table)),
                1};
    }
    if (verb == QLatin1String("DELETE"))
        return {SAY(QT_TRANSLATE_NOOP("idem::Narration", "%1 deletes %2 row(s) from %3."))
                    .arg(w)
                    .arg(e.rows)
                    .arg(quoted(table)),
                e.rows > 0 ? 2 : 1};
    if (verb == QLatin1String("SELECT") || verb == QLatin1String("WITH")) {
        if (table.isEmpty())
            return {SAY(QT_TRANSLATE_NOOP("idem::Narration", "%1 reads from the database.")).arg(w),
                    1};
        if (e.rows == 0)
            return {SAY(QT_TRANSLATE_NOOP("idem::Narration", "%1 reads %2: no matching row."))
                        .arg(w, quoted(table)),
                    1};
        return {SAY(QT_TRANSLATE_NOOP("idem::Narration", "%1 reads %2: %3 row(s)."))
                    .arg(w, quoted(table))
                    .arg(e.rows),
                1};
    }
    return {SAY(QT_TRANSLATE_NOOP("idem::Narration", "%1 runs %2.")).arg(w, verb), 1};
}

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
                         result.isEmpty()
                             ? QString()
                             : SAY(QT_TRANSLATE_NOOP("idem::Narration", " (%1)")).arg(result)),
                3};
    if (response == QLatin1String("error"))
        return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                      "%1 answers the %2 with an error%3: nothing was done, a "
                                      "retry is welcome."))
                    .arg(w, receiver,
                         result.isEmpty()
                             ? QString()
                             : SAY(QT_TRANSLATE_NOOP("idem::Narration", " (%1)")).arg(result)),
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
