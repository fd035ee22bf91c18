// challenge: lease-fencing
// A plausible wrong fix: take the lease, then ask "is it still mine?" right
// before paying. The question is answered before the write, not by it: a
// node that stalls between the two (a GC pause, a slow disk) pays after its
// lease went to another node, which paid too. Every database.
const leaseMs = 30000;
const schema =
    "CREATE TABLE locks (name TEXT PRIMARY KEY, owner TEXT, token INTEGER NOT NULL, expires_at INTEGER NOT NULL)";

function* handle(request, db) {
    const name = request.job + ":" + request.biz_date;
    yield db.exec("INSERT INTO locks (name, owner, token, expires_at) VALUES (?, NULL, 0, 0) " +
                  "ON CONFLICT (name) DO NOTHING",
                  name);
    const took = yield db.exec(
        "UPDATE locks SET owner = ?, token = token + 1, expires_at = ? WHERE name = ? AND expires_at <= ?",
        request.actor, now() + leaseMs, name, now());
    if (took.rowsAffected === 0)
        return { status: "in-progress" };
    const mine = yield db.query(
        "SELECT token FROM locks WHERE name = ? AND owner = ? AND expires_at > ?",
        name, request.actor, now());
    if (mine.length === 0)
        return { status: "in-progress" };
    yield db.exec(
        "INSERT INTO payouts (biz_date, merchant, amount, paid_by, token, paid_at) " +
        "SELECT biz_date, merchant, SUM(amount), ?, ?, ? FROM sales WHERE biz_date = ? " +
        "GROUP BY biz_date, merchant",
        request.actor, mine[0].token, now(), request.biz_date);
    return { status: "success", result: "settled" };
}
