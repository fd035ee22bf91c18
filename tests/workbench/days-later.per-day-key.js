// challenge: days-later
// A plausible wrong fix: a unique key, but on the request and its day, so
// that the dedup table can be cleared day by day. The compensation job's
// repeat 26 hours later falls in another day: a second order. Every
// database.
const dayMs = 24 * 3600 * 1000;
const schema =
    "CREATE TABLE seen (request_id TEXT NOT NULL, day INTEGER NOT NULL, order_id INTEGER, " +
    "PRIMARY KEY (request_id, day))";

function* handle(request, db) {
    const day = Math.floor(now() / dayMs);
    const claim = yield db.exec("INSERT INTO seen (request_id, day) VALUES (?, ?)", request.key, day);
    if (claim.error === "unique-violation") {
        const found = yield db.query("SELECT order_id FROM seen WHERE request_id = ? AND day = ?",
                                     request.key, day);
        if (found[0].order_id === null)
            return { status: "in-progress" };
        return { status: "duplicate", order: found[0].order_id };
    }
    if (claim.error)
        return { status: "error" };
    const r = yield db.exec(
        "INSERT INTO orders (request_id, user_id, amount, created_at) VALUES (?, ?, ?, ?)",
        request.key, request.user_id, request.amount, now());
    yield db.exec("UPDATE seen SET order_id = ? WHERE request_id = ? AND day = ?", r.insertId,
                  request.key, day);
    return { status: "created", order: r.insertId };
}
