// The order service. request: { key, user_id, amount }; answer with
// { status: "created" | "duplicate", order: <the order's id> }.
const schema = "CREATE UNIQUE INDEX uk_orders_request_id ON orders (request_id)";

function* handle(request, db) {
    const r = yield db.exec(
        "INSERT INTO orders (request_id, user_id, amount, created_at) VALUES (?, ?, ?, ?)",
        request.key, request.user_id, request.amount, now());
    if (r.error === "unique-violation")
        return { status: "duplicate" };
    return { status: "created", order: r.insertId };
}
