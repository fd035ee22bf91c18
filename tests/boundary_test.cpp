// One rule for every time limit: a record is expired when the age measured at
// the attempt's arrival, arrivedAt() - stamp, is the limit or more. Each guard
// is put at limit - 1, limit and limit + 1 under seeds 1-5: the decision
// depends on the gap between the two arrivals and on nothing else (not on
// how long the statements before the check happened to take).
#include "attempt.h"
#include "authoring.h"
#include "registry.h"
#include "run.h"
#include "testsupport.h"

// After the Qt-including headers: moc cannot parse <coroutine> on its own.
#include "claimguard.h"
#include "dedupguard.h"
#include "leaselock.h"
#include "ttlguard.h"

#include <QTest>

using namespace idem;

namespace {

const QString kDate = QStringLiteral("2025-03-01");

// Some work before the guard: a statement takes 1-2 virtual ms, as the seed
// decides, so a check that measured age at "now" would drift with the seed.
const QString kLookAround = QStringLiteral("SELECT COUNT(*) FROM sqlite_master");

// Two arrivals, `--interval-ms` apart. The first leaves a record behind (a
// claim, a lease, a key) and never finishes it; the second meets the record
// and its guard decides whether it has expired. The first arrival's own
// statements come before its stamp where the guard allows it.
class TwoArrivals : public Scenario {
public:
    TwoArrivals() {
        info_.id = QStringLiteral("two-arrivals");
        info_.schema = QStringList{DedupGuard::schema(), ClaimGuard::schema(), LeaseLock::schema(),
                                   TtlGuard::schema()};
        info_.callerRetries = false;
        info_.sources = {Source::GatewayRetry};
        info_.variants = {
            {.id = "dedup-expiry",
             .handle =
                 [](Attempt& a) {
                     return dedupExpiry(a);
                 }},
            {.id = "dedup-retention",
             .handle =
                 [](Attempt& a) {
                     return dedupRetention(a);
                 }},
            {.id = "claim",
             .handle =
                 [](Attempt& a) {
                     return claim(a);
                 }},
            {.id = "lease",
             .handle =
                 [](Attempt& a) {
                     return lease(a);
                 }},
            {.id = "ttl",
             .handle =
                 [](Attempt& a) {
                     return ttl(a);
                 }},
        };
    }
    const ScenarioInfo& info() const override { return info_; }
    void seed(Setup& setup, int intent) const override {
        setup.exec(ClaimGuard::pendingRow(), {QStringLiteral("settle"), kDate}, intent);
    }
    Effects effects(Reader&, int) const override { return {}; }

private:
    static DedupGuard dedup(const Attempt& a) {
        return DedupGuard(QStringLiteral("test"),
                          DedupGuard::Options{true, a.config().expiryMs, a.config().retentionMs});
    }
    // The claim is the first statement, as in every service that uses the
    // dedup table: its stamp is the arrival.
    static Task<Reply> dedupExpiry(Attempt& a) {
        if (a.number() > 1)
            co_await a.sql(kLookAround);
        co_await dedup(a).claim(a, QStringLiteral("req-1"));
        co_return Reply{};
    }
    static Task<Reply> dedupRetention(Attempt& a) {
        const DedupGuard::Claim c = co_await dedup(a).claim(a, QStringLiteral("req-1"));
        if (c.outcome != DedupGuard::Outcome::Done)
            co_await dedup(a).markSuccess(a, QStringLiteral("req-1"), QStringLiteral("R1"));
        co_return Reply{};
    }
    static Task<Reply> claim(Attempt& a) {
        co_await a.sql(kLookAround);
        const ClaimGuard claims(QStringLiteral("settle"), kDate, a.config().leaseMs);
        co_await claims.claim(a, DedupGuard::owner(a), QVariant());
        co_return Reply{};
    }
    static Task<Reply> lease(Attempt& a) {
        co_await a.sql(kLookAround);
        const LeaseLock lock(QStringLiteral("settle"), a.config().leaseMs);
        co_await lock.acquire(a, DedupGuard::owner(a));
        co_return Reply{};
    }
    static Task<Reply> ttl(Attempt& a) {
        co_await a.sql(kLookAround);
        co_await TtlGuard(a.config().ttlMs).setIfAbsent(a, QStringLiteral("points:1"));
        co_return Reply{};
    }

    ScenarioInfo info_;
};

const TwoArrivals& twoArrivals() {
    static const TwoArrivals scenario;
    return scenario;
}

qint64 limitOf(const RunConfig& c, const QString& guard) {
    if (guard == QLatin1String("dedup-expiry"))
        return c.expiryMs;
    if (guard == QLatin1String("dedup-retention"))
        return c.retentionMs;
    if (guard == QLatin1String("ttl"))
        return c.ttlMs;
    return c.leaseMs;
}

// The second arrival's decisions, in order.
QStringList decisionsOfSecond(const Run& run) {
    QStringList decisions;
    for (const TraceEvent& e : run.trace().events()) {
        if (e.is(EventKind::Guard) && e.attempt == 2)
            decisions << e.fields.value("decision").toString();
    }
    return decisions;
}

}  // namespace

class BoundaryTest : public QObject {
    Q_OBJECT
private slots:
    void limitMinusOneLimitLimitPlusOne_data();
    void limitMinusOneLimitLimitPlusOne();
};

void BoundaryTest::limitMinusOneLimitLimitPlusOne_data() {
    QTest::addColumn<QString>("guard");
    QTest::addColumn<int>("delta");
    QTest::addColumn<QStringList>("expected");
    struct Row {
        const char* guard;
        QStringList live;     // the record still counts
        QStringList expired;  // the record has expired
    };
    const Row rows[] = {
        {"dedup-expiry", {"in-progress"}, {"takeover"}},
        {"dedup-retention", {"duplicate"}, {"retention-expired", "claimed", "marked-success"}},
        {"claim", {"in-progress"}, {"takeover"}},
        {"lease", {"held"}, {"acquired"}},
        {"ttl", {"in-progress"}, {"set"}},
    };
    for (const Row& r : rows) {
        for (int delta : {-1, 0, 1}) {
            QTest::addRow("%s limit%+d", r.guard, delta)
                << QString::fromLatin1(r.guard) << delta << (delta < 0 ? r.live : r.expired);
        }
    }
}

void BoundaryTest::limitMinusOneLimitLimitPlusOne() {
    QFETCH(QString, guard);
    QFETCH(int, delta);
    QFETCH(QStringList, expected);
    for (quint32 seed = 1; seed <= 5; ++seed) {
        RunConfig c;
        c.scenario = twoArrivals().info().id;
        c.variant = guard;
        c.source = Source::GatewayRetry;
        c.timing = Timing::Retry;
        c.duplicates = 1;
        c.seed = seed;
        c.intervalMs = limitOf(c, guard) + delta;
        Run run(c, twoArrivals());
        QString error;
        QVERIFY2(run.start(&error), qPrintable(error));
        run.runToEnd();
        test::finish(run);
        const QStringList decisions = decisionsOfSecond(run);
        QVERIFY2(decisions == expected,
                 qPrintable(QStringLiteral("seed %1: %2").arg(seed).arg(decisions.join(", "))));
    }
}

QTEST_GUILESS_MAIN(BoundaryTest)
#include "boundary_test.moc"
