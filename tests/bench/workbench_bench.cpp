// Schedules per second of the workbench's attack on SQLite (SPEC section 9:
// at least 2,000 a second of a two-attempt, six-statement handler on the
// 2-core machine), and the whole check of each challenge's reference.
// Run by hand: build/tests/bench/workbench_bench [rounds]
#include "attack.h"
#include "challenge.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTextStream>

using namespace idem;

namespace {

// Six statements an attempt: a transaction around a check, an insert, a
// read and an update.
const char* const kSixStatements = R"js(
const schema = "CREATE UNIQUE INDEX uk_orders_request_id ON orders (request_id)";
function* handle(request, db) {
    yield db.begin();
    const found = yield db.query("SELECT id FROM orders WHERE request_id = ?", request.key);
    if (found.length > 0) {
        yield db.commit();
        return {status : "duplicate", order : found[0].id};
    }
    const r = yield db.exec(
        "INSERT INTO orders (request_id, user_id, amount, created_at) VALUES (?, ?, ?, ?)",
        request.key, request.user_id, request.amount, now());
    yield db.query("SELECT COUNT(*) AS n FROM orders WHERE user_id = ?", request.user_id);
    yield db.exec("UPDATE orders SET amount = amount WHERE id = ?", r.insertId);
    yield db.commit();
    return {status : "created", order : r.insertId};
}
)js";

}  // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    QTextStream out(stdout);
    const int rounds = argc > 1 ? std::max(1, atoi(argv[1])) : 3;
    const Challenge& doubleClick = *findChallenge(QStringLiteral("double-click"));
    qint64 runs = 0;
    QElapsedTimer timer;
    timer.start();
    for (int i = 0; i < rounds; ++i) {
        AttackOptions options;
        const AttackResult r = attackHandler(doubleClick, QString::fromLatin1(kSixStatements),
                                             QStringLiteral("six.js"), options);
        runs += r.run;
    }
    const double seconds = double(timer.nsecsElapsed()) / 1e9;
    out << QStringLiteral(
               "two attempts, six statements, sqlite: %1 schedules in %2 s = %3 "
               "schedules/s")
               .arg(runs)
               .arg(seconds, 0, 'f', 2)
               .arg(double(runs) / seconds, 0, 'f', 0)
        << Qt::endl;
    for (const Challenge& c : allChallenges()) {
        timer.restart();
        const AttackResult r =
            attackHandler(c, c.reference, QStringLiteral("reference.js"), AttackOptions{});
        out << QStringLiteral("%1 reference on sqlite: %2 schedules in %3 s")
                   .arg(c.id, -16)
                   .arg(r.run)
                   .arg(double(timer.nsecsElapsed()) / 1e9, 0, 'f', 2)
            << Qt::endl;
    }
    return 0;
}
