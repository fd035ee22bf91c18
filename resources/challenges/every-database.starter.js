// The order service. request: { key, user_id, amount }; answer with
// { status: "created" | "duplicate", order: <the order's id> }.
// It passes on SQLite.
const schema = "CREATE UNIQUE INDEX uk_orders_request_id ON orders (request_id)";

function* handle(request, db) {
    yield db.begin();
    const found = yield db.query("SELECT id FROM orders WHERE request_id = ?", request.key);
    if (found.length > 0) {
        yield db.commit();
        return { status: "duplicate", order: found[0].id };
    }
    const r = yield db.exec(
        "INSERT INTO orders (request_id, user_id, amount, created_at) VALUES (?, ?, ?, ?)",
        request.key, request.user_id, request.amount, now());
    if (r.error === "unique-violation") {
        // Someone else created it meanwhile: answer with theirs.
        const existing = yield db.query("SELECT id FROM orders WHERE request_id = ?", request.key);
        yield db.commit();
        return { status: "duplicate", order: existing.length > 0 ? existing[0].id : null };
    }
    yield db.commit();
    return { status: "created", order: r.insertId };
}
