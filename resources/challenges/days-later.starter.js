// The order service. request: { key, user_id, amount }; answer with
// { status: "created" | "duplicate", order: <the order's id> }.
// A repeat is looked for among the last hour's orders only.
const hourMs = 3600 * 1000;

function* handle(request, db) {
    const found = yield db.query(
        "SELECT id FROM orders WHERE request_id = ? AND created_at > ?",
        request.key, now() - hourMs);
    if (found.length > 0)
        return { status: "duplicate", order: found[0].id };
    const r = yield db.exec(
        "INSERT INTO orders (request_id, user_id, amount, created_at) VALUES (?, ?, ?, ?)",
        request.key, request.user_id, request.amount, now());
    return { status: "created", order: r.insertId };
}
