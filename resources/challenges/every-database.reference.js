// Portable: after a failed statement, roll back before anything else (a
// PostgreSQL transaction refuses every later statement), read the winner's
// order outside the transaction (a repeatable-read snapshot does not show
// it), and answer error on a deadlock or serialization failure, which the
// caller retries.
const schema = "CREATE UNIQUE INDEX uk_orders_request_id ON orders (request_id)";

function* handle(request, db) {
    yield db.begin();
    const found = yield db.query("SELECT id FROM orders WHERE request_id = ?", request.key);
    if (found.length > 0) {
        yield db.commit();
        return { status: "duplicate", order: found[0].id };
    }
    if (found.error) {
        yield db.rollback();
        return { status: "error" };
    }
    const r = yield db.exec(
        "INSERT INTO orders (request_id, user_id, amount, created_at) VALUES (?, ?, ?, ?)",
        request.key, request.user_id, request.amount, now());
    if (r.error) {
        yield db.rollback();
        if (r.error !== "unique-violation")
            return { status: "error" };
        const existing = yield db.query("SELECT id FROM orders WHERE request_id = ?", request.key);
        if (existing.length === 0)
            return { status: "error" };
        return { status: "duplicate", order: existing[0].id };
    }
    const done = yield db.commit();
    if (done.error)
        return { status: "error" };  // a serialization failure at commit: nothing was written
    return { status: "created", order: r.insertId };
}
