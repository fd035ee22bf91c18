// The order service. request: { key, user_id, amount }; answer with
// { status: "created" | "duplicate", order: <the order's id> }.
// Right, but it deadlocks on MariaDB: find out where.
const schema = "CREATE UNIQUE INDEX uk_orders_request_id ON orders (request_id)";

function* handle(request, db) {
    for (let round = 0; round < 3; round++) {
        yield db.begin();
        const found = yield db.query(
            "SELECT id FROM orders WHERE request_id = ? FOR UPDATE", request.key);
        if (found.length > 0) {
            yield db.commit();
            return { status: "duplicate", order: found[0].id };
        }
        const r = yield db.exec(
            "INSERT INTO orders (request_id, user_id, amount, created_at) VALUES (?, ?, ?, ?)",
            request.key, request.user_id, request.amount, now());
        if (r.error === "deadlock") {
            yield db.rollback();  // the server chose this one as its victim: try again
            continue;
        }
        if (r.error) {
            yield db.rollback();
            return { status: "error" };
        }
        yield db.commit();
        return { status: "created", order: r.insertId };
    }
    return { status: "error" };
}
