// challenge: statement-budget
// A plausible wrong fix: correct (the unique key has the last word), but it
// looks before it inserts, "to save the INSERT": a repeat that comes in
// between the first request's SELECT and INSERT pays three statements.
const schema = "CREATE UNIQUE INDEX uk_orders_request_id ON orders (request_id)";

function* handle(request, db) {
    const found = yield db.query("SELECT id FROM orders WHERE request_id = ?", request.key);
    if (found.length > 0)
        return { status: "duplicate", order: found[0].id };
    const r = yield db.exec(
        "INSERT INTO orders (request_id, user_id, amount, created_at) VALUES (?, ?, ?, ?)",
        request.key, request.user_id, request.amount, now());
    if (r.error === "unique-violation") {
        const again = yield db.query("SELECT id FROM orders WHERE request_id = ?", request.key);
        return { status: "duplicate", order: again[0].id };
    }
    if (r.error)
        return { status: "error" };
    return { status: "created", order: r.insertId };
}
