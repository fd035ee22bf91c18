#include "downstream.h"

#include "attempt.h"
#include "dedupguard.h"
#include "uniquekey.h"

#include <QCoreApplication>

namespace idem {

namespace {

// This scenario's sentences, said in English in the trace and the summary
// and in the reader's language where they are shown.
Phrase said(const char* source, std::vector<Phrase> args = {}) {
    return Phrase("idem::Downstream", source, std::move(args));
}

// The coupon service's own SQL. Without a key it can only insert; with one,
// its unique index recognises a call it has already served.
const QString kGrant = QStringLiteral(R"(INSERT INTO coupon_grants (user_id, campaign, granted_at)
VALUES (?, ?, ?)
RETURNING id)");
const QString kGrantWithKey =
    QStringLiteral(R"(INSERT INTO coupon_grants (grant_key, user_id, campaign, granted_at)
VALUES (?, ?, ?, ?)
RETURNING id)");
const QString kFindGrant = QStringLiteral("SELECT id FROM coupon_grants WHERE grant_key = ?");

const QString kCampaign = QStringLiteral("WELCOME-10");
const QString kDownstreamLane = QStringLiteral("downstream");
// How long the service waits for the coupon service before it calls again.
constexpr qint64 kCallTimeoutMs = 500;
Phrase waitingForAnswer() {
    return said(
        QT_TRANSLATE_NOOP("idem::Downstream", "no answer from the coupon service: timeout"));
}

qint64 userOf(int intent) {
    return 30001 + intent;
}
QString requestIdOf(const Attempt& a) {
    return QStringLiteral("req-%1").arg(a.intent() + 1);
}

// Which of the coupon service's answers get lost on the way back: under
// downstream-timeout the first `duplicates` ones; the point downstream-lost
// loses the first answer of the chosen attempt.
bool answerLost(const Attempt& a, int call) {
    if (call == 1 && a.crashesAt(CrashPoint::DownstreamLost))
        return true;
    return a.config().source == Source::DownstreamTimeout && call <= a.config().duplicates;
}

}  // namespace

Downstream::Downstream() {
    info_.id = QStringLiteral("downstream");
    info_.group = ScenarioGroup::Misconception;
    info_.title = QStringLiteral("Request id only at the entry");
    info_.schema = {DedupGuard::schema(), QStringLiteral(R"(CREATE TABLE coupon_grants (
    id         INTEGER PRIMARY KEY,
    grant_key  TEXT,
    user_id    INTEGER NOT NULL,
    campaign   TEXT    NOT NULL,
    granted_at INTEGER NOT NULL
))")};
    info_.variants = {
        {.id = "entry-only",
         .crashPoints = {CrashPoint::DownstreamLost},
         .summary = "dedup table at the entry; the coupon call carries no key",
         .handle =
             [this](Attempt& a) {
                 return serve(a, false);
             }},
        {.id = "downstream-key",
         .recommended = true,
         .crashPoints = {CrashPoint::DownstreamLost},
         .summary =
             "the call carries <request-id>:coupon; the coupon service has UNIQUE(grant_key)",
         .handle = [this](Attempt& a) { return serve(a, true); },
         .schema = {QStringLiteral(
             "CREATE UNIQUE INDEX uk_coupon_grants_key ON coupon_grants (grant_key)")}},
    };
    info_.sources = {Source::DownstreamTimeout, Source::GatewayRetry};
    info_.defaultTiming = Timing::Retry;
    info_.tables = {"dedup", "coupon_grants"};
    info_.guardTable = "dedup";
    info_.lanes = {"gateway", "service", "downstream"};
    info_.baseline = "entry-only";
    info_.effectTable = "coupon_grants";
    info_.effectNames = {"coupons"};
    // The entry's dedup record; the coupon service keeps no state of its own.
    info_.stateMachine = {
        "dedup record",
        {{"", "", 0, 1}, {"PROCESSING", "处理中", 2, 1}, {"SUCCESS", "成功", 4, 1}},
        {{"", "PROCESSING"}, {"PROCESSING", "PROCESSING"}, {"PROCESSING", "SUCCESS"}},
        {}};
    info_.stateMachine.stateQuery = QStringLiteral("SELECT biz_id, status FROM dedup");
    info_.words = {
        .actors = {{kDownstreamLane, said(QT_TRANSLATE_NOOP("idem::Downstream", "downstream"))}},
        .notes = {{"downstream-call",
                   said(QT_TRANSLATE_NOOP("idem::Downstream", "call")),
                   said(QT_TRANSLATE_NOOP("idem::Downstream",
                                          "%1 calls the %2 (call %3), with the key %4.")),
                   {NoteArg::who(), NoteArg::actorIn("receiver"), NoteArg::field("call"),
                    NoteArg::field("grant_key")},
                   "grant_key"},
                  {"downstream-call",
                   said(QT_TRANSLATE_NOOP("idem::Downstream", "call")),
                   said(QT_TRANSLATE_NOOP("idem::Downstream", "%1 calls the %2 (call %3).")),
                   {NoteArg::who(), NoteArg::actorIn("receiver"), NoteArg::field("call")}},
                  {"downstream-answer",
                   said(QT_TRANSLATE_NOOP("idem::Downstream", "answer")),
                   said(
                       QT_TRANSLATE_NOOP("idem::Downstream", "The %1 answers call %2: coupon %3.")),
                   {NoteArg::actor(), NoteArg::field("call"), NoteArg::field("coupon_id")}},
                  {"answer-lost",
                   said(QT_TRANSLATE_NOOP("idem::Downstream", "answer lost")),
                   said(QT_TRANSLATE_NOOP("idem::Downstream",
                                          "The %1 granted coupon %3, but its answer to call %2 is "
                                          "lost: the caller times out and believes nothing "
                                          "happened.")),
                   {NoteArg::actor(), NoteArg::field("call"), NoteArg::field("coupon_id")}}},
        .entity = said(QT_TRANSLATE_NOOP("idem::Downstream", "dedup record")),
    };
}

void Downstream::plan(Planner& planner, int intent) const {
    if (planner.config().source != Source::DownstreamTimeout) {
        planner.fireDefault(intent);
        return;
    }
    // The duplicates happen inside the service (lost answers from the
    // coupon service): only one request arrives at the entry.
    AttemptSpec original;
    original.intent = intent;
    original.number = 1;
    original.at = planner.intentStart(intent);
    original.kind = QStringLiteral("original");
    planner.fire(original);
}

Task<Reply> Downstream::serve(Attempt& a, bool passKey) const {
    const RunConfig& c = a.config();
    const DedupGuard entry(QStringLiteral("welcome-coupon"),
                           DedupGuard::Options{true, c.expiryMs, c.retentionMs});
    const QString requestId = requestIdOf(a);

    // 1. Deduplicate at the entry on the request id: repeated requests from
    //    the gateway stop here.
    const DedupGuard::Claim claim = co_await entry.claim(a, requestId);
    if (claim.outcome == DedupGuard::Outcome::Done)
        co_return Reply{Response::Success, claim.result};
    if (claim.outcome == DedupGuard::Outcome::InProgress)
        co_return Reply{Response::InProgress, {}};

    // 2. Ask the coupon service for the coupon, calling again on a timeout.
    const QString couponId = co_await callCouponService(a, requestId, passKey);

    // 3. Record the answer for later duplicates at the entry.
    co_await entry.markSuccess(a, requestId, couponId);
    co_return Reply{Response::Success, couponId};
}

Task<QString> Downstream::callCouponService(Attempt& a, const QString& requestId,
                                            bool passKey) const {
    // The key names this request's coupon, so every retry of the call names
    // the same one; entry-only sends no key at all.
    const QString grantKey = passKey ? requestId + QStringLiteral(":coupon") : QString();
    for (int call = 1;; ++call) {
        const std::optional<QString> answer = co_await callOnce(a, call, grantKey);
        if (answer)
            co_return *answer;
        // No answer looks exactly like a failure: the service cannot tell
        // that the coupon was granted, so it calls again.
        co_await a.work(kCallTimeoutMs, waitingForAnswer());
    }
}

Task<std::optional<QString>> Downstream::callOnce(Attempt& a, int call,
                                                  const QString& grantKey) const {
    const QString service = a.actor();
    Fields request{
        {"sender", service}, {"receiver", kDownstreamLane}, {"call", call}, {"retry", call > 1}};
    if (!grantKey.isEmpty())
        request.set("grant_key", grantKey);
    a.note(QStringLiteral("downstream-call"), request);

    // The coupon service serves the call in its own lane.
    a.setActor(kDownstreamLane);
    const QString couponId = co_await grantCoupon(a, grantKey);
    const bool lost = answerLost(a, call);
    a.note(lost ? QStringLiteral("answer-lost") : QStringLiteral("downstream-answer"),
           {{"sender", kDownstreamLane},
            {"receiver", service},
            {"call", call},
            {"coupon_id", couponId},
            {"lost", lost}});
    a.setActor(service);

    if (lost)
        co_return std::nullopt;
    co_return couponId;
}

Task<QString> Downstream::grantCoupon(Attempt& a, const QString& grantKey) const {
    const qint64 user = userOf(a.intent());
    if (grantKey.isEmpty()) {
        const SqlResult r = co_await a.sql(kGrant, user, kCampaign, a.now());
        co_return r.value().toString();
    }
    const UniqueInsert grant =
        co_await insertUnique(a, grantKey, kGrantWithKey, bound(grantKey, user, kCampaign, a.now()),
                              kFindGrant, bound(grantKey));
    co_return grant.row.value().toString();
}

Effects Downstream::effects(Reader& db, int intent) const {
    return {{QStringLiteral("coupons"),
             db.count(QStringLiteral("SELECT COUNT(*) FROM coupon_grants WHERE user_id = ?"),
                      {userOf(intent)})}};
}

}  // namespace idem
