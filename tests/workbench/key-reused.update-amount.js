// challenge: key-reused
// A plausible wrong fix: it notices the repeat's amount differs, and takes
// the newer amount as the client's real wish: the order is changed and the
// repeat told success. A key stands for one request; a different payload
// must be refused (422), not carried out. Every database.
const schema = "CREATE UNIQUE INDEX uk_orders_request_id ON orders (request_id)";

function* handle(request, db) {
    const r = yield db.exec(
        "INSERT INTO orders (request_id, user_id, amount, created_at) VALUES (?, ?, ?, ?)",
        request.key, request.user_id, request.amount, now());
    if (r.error === "unique-violation") {
        const found = yield db.query("SELECT id, amount FROM orders WHERE request_id = ?",
                                     request.key);
        if (found[0].amount !== request.amount)
            yield db.exec("UPDATE orders SET amount = ? WHERE id = ?", request.amount, found[0].id);
        return { status: "duplicate", order: found[0].id };
    }
    if (r.error)
        return { status: "error" };
    return { status: "created", order: r.insertId };
}
