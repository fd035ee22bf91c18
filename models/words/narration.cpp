// The narrator's memory and the shape of a step's caption: what it
// remembers of the events fed so far (attempts, rows, states, open
// transactions), who an event is said to be, and which sentences of a step
// are told. The captions of the events themselves are in narrationevents.cpp,
// narrationsql.cpp and narrationdecisions.cpp.
#include "narration.h"

#include "names.h"
#include "narrationtext.h"
#include "phrase.h"
#include "scenariowords.h"
#include "traceevent.h"

#include <QMutex>
#include <QRegularExpression>

namespace idem {

namespace {

// A step that did many things is told by its first few sentences.
constexpr int kSentencesPerStep = 3;

QMutex untranslatedLock;
QSet<QString> untranslatedSources;

// Whether a translation is installed: the names of the vocabulary are always
// translated when one is.
bool translating() {
    return responseName(QStringLiteral("success")) != QLatin1String("success");
}

}  // namespace

namespace narration {

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

qint64 attemptKey(const TraceEvent& e) {
    return qint64(e.intent) * 1'000'000 + e.attempt;
}

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

namespace {

// A sentence after the others: a space between, unless the text so far ends
// in Chinese punctuation.
void appendSentence(QString& text, const QString& s) {
    if (s.isEmpty())
        return;
    if (!text.isEmpty() && !text.endsWith(QChar(0x3002)) && !text.endsWith(QChar(0xFF09)) &&
        !text.endsWith(QChar(0xFF01)) && !text.endsWith(QChar(0xFF1F)))
        text += QLatin1Char(' ');
    text += s;
}

QString spacedLabels(QString text) {
    // An attempt's label before a Chinese word gets a space, as Latin
    // letters and digits do in Chinese text ("#1 记录下", not "#1记录下").
    // An ideograph only: \p{Han} also takes the ideographic comma by its
    // script extensions ("#2、#3" stays as it is).
    static const QRegularExpression labelThenHan(
        QStringLiteral("(#\\d+)(?=[\\x{3400}-\\x{4dbf}\\x{4e00}-\\x{9fff}])"));
    text.replace(labelThenHan, QStringLiteral("\\1 "));
    return text;
}

}  // namespace

QString joinSentences(const QStringList& sentences) {
    QString text;
    for (const QString& s : sentences) appendSentence(text, s);
    return spacedLabels(text);
}

QString joinSentences(const QString& first, const QString& second) {
    QString text;
    appendSentence(text, first);
    appendSentence(text, second);
    return spacedLabels(text);
}

QString quoted(const QString& name) {
    return name;
}

}  // namespace narration

using namespace narration;

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
    serverRefusals_.clear();
    sessions_.clear();
    waitingSessions_.clear();
}

QStringList Narrator::untranslated() {
    QMutexLocker lock(&untranslatedLock);
    QStringList list(untranslatedSources.begin(), untranslatedSources.end());
    untranslatedSources.clear();
    list.sort();
    return list;
}

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
        if (Said dropped = sayDropped(&e); !dropped.text.isEmpty())
            said << dropped;
        said << say(e);
    }
    if (Said dropped = sayDropped(nullptr); !dropped.text.isEmpty())
        said << dropped;
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
    const QString dropped = sayDropped(&e).text;
    const QString text = say(e).text;
    return joinSentences(dropped, text);
}

Narrator::Said Narrator::sayDropped(const TraceEvent* next) {
    const qint16 connection = transactions_.droppedBefore(next);
    if (connection < 0)
        return {};
    // A server: the process's connection closed with it, and the server
    // rolled its transaction back (SQLite's is the lab's ROLLBACK, saySql).
    const QString written = writtenIn(connection);
    settle(connection, false);
    if (written.isEmpty())
        return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                      "The database rolls back the open transaction of the "
                                      "process that died: nothing it wrote there survives.")),
                3};
    return {SAY(QT_TRANSLATE_NOOP("idem::Narration", "Nothing of its open transaction stays: %1."))
                .arg(written),
            3};
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

}  // namespace idem
