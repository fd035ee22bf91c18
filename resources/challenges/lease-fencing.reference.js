// A lease lock with a fencing token, and a record of the settled day: a
// write counts only while the writer's token is the current one.
const leaseMs = 30000;
const schema = [
    "CREATE TABLE locks (name TEXT PRIMARY KEY, owner TEXT, token INTEGER NOT NULL, expires_at INTEGER NOT NULL)",
    "CREATE TABLE job_runs (job TEXT NOT NULL, biz_date TEXT NOT NULL, status TEXT NOT NULL, " +
        "owner_token INTEGER NOT NULL, PRIMARY KEY (job, biz_date))"
];

function* handle(request, db) {
    const name = request.job + ":" + request.biz_date;
    yield db.exec("INSERT INTO locks (name, owner, token, expires_at) VALUES (?, NULL, 0, 0) " +
                  "ON CONFLICT (name) DO NOTHING",
                  name);
    const took = yield db.exec(
        "UPDATE locks SET owner = ?, token = token + 1, expires_at = ? WHERE name = ? AND expires_at <= ?",
        request.actor, now() + leaseMs, name, now());
    if (took.rowsAffected === 0)
        return { status: "in-progress" };  // another node holds it: try again later
    const lock = yield db.query("SELECT token FROM locks WHERE name = ?", name);
    const token = lock[0].token;
    const done = yield db.query("SELECT status FROM job_runs WHERE job = ? AND biz_date = ?",
                                request.job, request.biz_date);
    if (done.length > 0)
        return { status: "success", result: "settled before" };
    yield db.begin();
    const paid = yield db.exec(
        "INSERT INTO payouts (biz_date, merchant, amount, paid_by, token, paid_at) " +
        "SELECT biz_date, merchant, SUM(amount), ?, ?, ? FROM sales WHERE biz_date = ? " +
        "AND EXISTS (SELECT 1 FROM locks WHERE name = ? AND token = ?) " +
        "GROUP BY biz_date, merchant",
        request.actor, token, now(), request.biz_date, name, token);
    if (paid.rowsAffected === 0) {
        yield db.rollback();  // the lease went to another node meanwhile
        return { status: "in-progress" };
    }
    yield db.exec("INSERT INTO job_runs (job, biz_date, status, owner_token) VALUES (?, ?, 'DONE', ?)",
                  request.job, request.biz_date, token);
    yield db.commit();
    return { status: "success", result: "settled" };
}
