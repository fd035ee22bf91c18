// challenge: key-reused
// A plausible wrong fix: the double click's answer (the key finds the
// order, the repeat gets it) without looking at what the repeat asks for.
// A retry with another amount is told its order exists: every database.
const schema = "CREATE UNIQUE INDEX uk_orders_request_id ON orders (request_id)";

function* handle(request, db) {
    const r = yield db.exec(
        "INSERT INTO orders (request_id, user_id, amount, created_at) VALUES (?, ?, ?, ?)",
        request.key, request.user_id, request.amount, now());
    if (r.error === "unique-violation") {
        const found = yield db.query("SELECT id FROM orders WHERE request_id = ?", request.key);
        return { status: "duplicate", order: found[0].id };
    }
    if (r.error)
        return { status: "error" };
    return { status: "created", order: r.insertId };
}
