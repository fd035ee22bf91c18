// The settlement job. request: { job, biz_date, actor (the node that runs
// it) }; pay every merchant the day's sales once:
//   INSERT INTO payouts (biz_date, merchant, amount, paid_by, token, paid_at)
//   SELECT biz_date, merchant, SUM(amount), ?, ?, ? FROM sales WHERE biz_date = ?
//   GROUP BY biz_date, merchant
// and answer { status: "success" } (or "in-progress": try again later).
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
        return { status: "success", result: "another node runs it" };
    yield db.exec(
        "INSERT INTO payouts (biz_date, merchant, amount, paid_by, token, paid_at) " +
        "SELECT biz_date, merchant, SUM(amount), ?, NULL, ? FROM sales WHERE biz_date = ? " +
        "GROUP BY biz_date, merchant",
        request.actor, now(), request.biz_date);
    return { status: "success", result: "settled" };
}
