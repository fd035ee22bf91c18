// What a scenario tells the engine: its variants and crash points, its schema
// and seed rows, how duplicates arrive, the service handler, and how to read
// its effects and its consistency from the final database.
#pragma once

#include "phrase.h"
#include "scenariowords.h"
#include "summary.h"
#include "task.h"
#include "vocabulary.h"

#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>
#include <QVariantMap>

#include <functional>
#include <vector>

namespace idem {

class Attempt;
class Planner;
class Reader;
class Setup;
struct RunConfig;

// The service's answer to one attempt.
struct Reply {
    Response response = Response::Success;
    Phrase result;  // the business result (an order id ...); a duplicate gets the original's
};

// One variant, declared once: its id, its service code, where it may crash,
// and what it adds to the scenario's tables.
struct VariantInfo {
    QString id{};
    bool recommended = false;
    QList<CrashPoint> crashPoints{};
    QString summary{};  // one line in English, for `idemlab list`
    std::function<Task<Reply>(Attempt&)> handle{};
    QStringList schema{};  // indexes and guard tables this variant adds
    // Rows this variant adds before an intent's first attempt (after the
    // scenario's own seed rows).
    std::function<void(Setup&, int intent)> seed{};
    // Effects whose repetition the business accepts (接受代价: a second
    // notification is a nuisance, not a loss). Repeats of them are still
    // duplicated, marked tolerated in the summary.
    QStringList toleratedEffects{};
    // Live mode (SPEC section 8): the servers this variant's SQL runs on
    // ("mariadb", "postgres"), beside SQLite: every variant's, in each
    // server's spelling (sqldialect.h), unless it says otherwise; and whether
    // it needs one (a statement SQLite lacks, as SELECT ... FOR UPDATE).
    QStringList servers{QStringLiteral("mariadb"), QStringLiteral("postgres")};
    bool serverOnly = false;
    // SPEC section 10: with --redis, its guard keeps its keys in a real
    // Redis (else --redis is refused for it).
    bool redis = false;
    // Its lesson is a server's (SPEC section 8): left out of the lists that
    // run on SQLite alone (the window, an experiment of every variant).
    bool serverLesson = false;
};

struct ParamInfo {
    QString key;
    QString defaultValue;
    QStringList allowed;  // empty: an integer between min and max
    qint64 min = 0;
    qint64 max = 0;
    QString summary;
    // The run option this parameter sets in another unit ("ttl-ms" for
    // "ttl-s"): the command line refuses both at once.
    QString sets = {};
};

// The state diagram the window draws: nodes at positions given here (grid
// units, x to the right, y down), "" being the start, and the allowed moves.
struct StateNode {
    QString id;
    QString zh;  // the Chinese name shown under the id
    double x = 0;
    double y = 0;
};
struct StateEdge {
    QString from;
    QString to;
    // A name drawn along the edge, in the window's language: English, or
    // Chinese (空回滚) where given; empty: none.
    QString label{};
    QString zh{};
};
struct StateMachineInfo {
    QString what;  // whose state: "dedup record", "order", "job run"
    QList<StateNode> nodes;
    QList<StateEdge> edges;
    QStringList variants;  // the variants that keep this state; empty: all
    // Where each entity stands in the database: a SELECT of (entity, state)
    // rows, so that what the diagram draws can be checked against the tables.
    QString stateQuery{};
};

// Where the picker lists a scenario: the article's recommendations, the
// operations idempotent by nature, reads, misconceptions, and what
// production adds.
enum class ScenarioGroup { Recommended, Natural, Read, Misconception, Production };
QString toId(ScenarioGroup g);

struct ScenarioInfo {
    QString id;
    QStringList schema;  // CREATE TABLE statements every variant shares
    ScenarioGroup group = ScenarioGroup::Recommended;
    QString title;  // English title; the window uses the translated texts
    QList<VariantInfo> variants;
    QList<Source> sources;  // the first is the default
    Timing defaultTiming = Timing::Retry;
    int defaultDuplicates = 2;
    QList<ParamInfo> params;
    QStringList tables;         // tables the views show, guard table first
    QString guardTable;         // the dedup / claim / lock table, empty if none
    QStringList effectNames;    // what the judge counts
    bool callerRetries = true;  // the source retries an attempt that got no definite answer
    // The most SQL statements one attempt runs, for the cost estimate
    // (configcheck.h); empty: kStatementsPerAttempt, enough for an ordinary
    // request. A scenario whose attempt loops over its parameters (a reader
    // paging through a feed) gives its own bound.
    std::function<qint64(const RunConfig&)> statementsPerAttempt{};
    StateMachineInfo stateMachine;
    // The sequence diagram's lanes in the order a reader expects: who sends,
    // who serves, who stores. The database always comes last; a lane not
    // named here follows these, in the order it first appears.
    QStringList lanes{};
    // Payload keys that change what an attempt asks for (a SUCCESS or a late
    // FAILED callback, TCC's Try / Confirm / Cancel): their values are shown
    // on the attempt's arrow and in the step's caption; every other key only
    // in the arrow's tooltip.
    QStringList askKeys{};
    // The table that holds the business effect, shown first on the stage
    // (empty: none in particular). A scenario whose effect moves between
    // tables names the run's in its summary ("table").
    QString effectTable{};
    // The page that plays a run: the live stage, or the paging strategies
    // side by side (a read scenario whose variants page the same feed).
    enum class Stage { Live, Paging };
    Stage stage = Stage::Live;
    // What the paging page follows (Stage::Paging): the note a reader
    // leaves for each page it gets, and the one the other users' writes
    // between two pages leave.
    struct PagingNotes {
        QString page{};
        QString feedChanged{};
    };
    PagingNotes pagingNotes{};
    // The lab's own instruments rather than the system under study: the
    // lanes of processes that only record what happened (a process copying
    // rows to compare later), and the tables of such copies and of the
    // lab's bookkeeping. The stage hides them unless internals are shown.
    QStringList internalLanes{};
    QStringList internalTables{};

    // The variant the recommended one is compared with (Compare's left
    // side): no protection, or the weaker approach the lesson starts from.
    // Empty: none in particular (every variant is a case of its own).
    QString baseline{};
    // Every word the scenario shows: its actors, its notes' names and
    // captions, its guards' decisions, its parameters, its state diagram's
    // entity.
    ScenarioWords words{};

    const VariantInfo* variant(const QString& id) const;
    const ParamInfo* param(const QString& key) const;
    QString recommendedVariant() const;
    // The declared baseline, else the first variant.
    QString baselineVariant() const;
    // The param's value in this run, or its default.
    QString paramValue(const RunConfig& config, const QString& key) const;
};

// What the database says a caller should have been told: whether the
// intent's effect happened, and the result a success must carry (empty: any).
// Unchecked: the scenario's answers say nothing the database could contradict.
struct AnswerTruth {
    bool checked = false;
    bool happened = false;
    Phrase result;
    // What the database shows, in the words a wrong answer is listed with;
    // empty: the judge says it ("nothing was done", "it was done").
    Phrase shows{};
    // An intent whose attempts ask for different things (TCC's Try, Confirm,
    // Cancel): each operation's own truth, by the attempt's operation. An
    // answer to an operation not listed here is held against the fields above.
    QMap<QString, AnswerTruth> operations{};
    // Which of the payloads sent under the key the effect carries
    // (AttemptSpec::changedPayload): 0 the intent's own. Under concurrent
    // timing a changed request may get to the key first; then it is the
    // one carried out, and the intent's own is the one refused.
    int payloadDone = 0;

    bool operator==(const AnswerTruth&) const = default;
};

// One intent's outcome as the judge reads it.
struct IntentJudgement {
    Effects effects;
    Effects expected;
    Phrase inconsistency;   // non-empty: why effects and state disagree
    bool answered = false;  // the caller got a definite answer (success, rejected, error)
    Verdict verdict = Verdict::ExactlyOnce;
    bool tolerated = false;  // duplicated, but only in effects the variant accepts
};

class Scenario {
public:
    virtual ~Scenario() = default;
    virtual const ScenarioInfo& info() const = 0;

    // CREATE TABLE / INDEX statements for this variant, in order: the
    // scenario's own tables, then what the variant adds.
    virtual QStringList schema(const RunConfig& config) const;
    // Rows that exist before the first attempt of this intent.
    virtual void seed(Setup& setup, int intent) const;
    // When attempts arrive; the default fires the original and its duplicates
    // as the timing says.
    virtual void plan(Planner& planner, int intent) const;
    // The service code, run once per attempt: the variant's handler unless
    // the scenario routes some processes itself (a broker, a writer).
    virtual Task<Reply> handle(Attempt& attempt) const;

    virtual Effects effects(Reader& db, int intent) const = 0;
    virtual Effects expectedEffects(const RunConfig& config, int intent) const;
    // Non-empty when effects and state disagree (money recorded but order not
    // paid, a status moved backwards, a lost update).
    virtual Phrase inconsistency(Reader& db, int intent) const;
    // The same for every intent at once: a scenario with many intents reads
    // them with one grouped query each instead of one query per intent.
    virtual std::vector<Effects> effectsOfAll(Reader& db, int intents) const;
    virtual std::vector<Phrase> inconsistenciesOfAll(Reader& db, int intents) const;
    // What each intent's callers should have been told (SPEC section 2,
    // Answers); the default checks nothing.
    virtual std::vector<AnswerTruth> answerTruthOfAll(Reader& db, int intents) const;
    // Turns effects, consistency and whether the caller got an answer into a
    // verdict; the default is SPEC section 2's order.
    virtual Verdict judge(const IntentJudgement& j) const;
    // The final counts of the alerts the run raised (how many repeats their
    // window held at the end); the default leaves them unknown.
    virtual void completeAlerts(Reader& db, QList<AlertRecord>& alerts) const;
    // Scenario-specific fields of the run summary (pagination's pages ...).
    virtual void extendSummary(Reader& db, const RunConfig& config, QJsonObject& summary) const;
};

}  // namespace idem
