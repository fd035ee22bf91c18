// A key stands for one request: a repeat with another payload is refused.
const schema = "CREATE UNIQUE INDEX uk_orders_request_id ON orders (request_id)";

function* handle(request, db) {
    const r = yield db.exec(
        "INSERT INTO orders (request_id, user_id, amount, created_at) VALUES (?, ?, ?, ?)",
        request.key, request.user_id, request.amount, now());
    if (r.error === "unique-violation") {
        const found = yield db.query("SELECT id, amount FROM orders WHERE request_id = ?",
                                     request.key);
        if (found[0].amount !== request.amount)
            return { status: "key-reused" };
        return { status: "duplicate", order: found[0].id };
    }
    if (r.error)
        return { status: "error" };
    return { status: "created", order: r.insertId };
}
