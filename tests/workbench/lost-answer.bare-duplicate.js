// challenge: lost-answer
// A plausible wrong fix: the unique key stops the second order, and the
// repeat answers "duplicate" with nothing else. The gateway's retry was the
// caller's only way to learn the order's id; a bare "duplicate" is a
// success that does not say which order: every database, every level.
const schema = "CREATE UNIQUE INDEX uk_orders_request_id ON orders (request_id)";

function* handle(request, db) {
    const r = yield db.exec(
        "INSERT INTO orders (request_id, user_id, amount, created_at) VALUES (?, ?, ?, ?)",
        request.key, request.user_id, request.amount, now());
    if (r.error === "unique-violation")
        return { status: "duplicate" };
    if (r.error)
        return { status: "error" };
    return { status: "created", order: r.insertId };
}
