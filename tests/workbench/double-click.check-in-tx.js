// challenge: double-click
// A plausible wrong fix: check, then insert, in one transaction, as if the
// transaction made the two one step. SQLite's single writer hides the race;
// MariaDB and PostgreSQL at their default levels let both requests insert.
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
    if (r.error) {
        yield db.rollback();
        return { status: "error" };
    }
    const c = yield db.commit();
    if (c.error)
        return { status: "error" };
    return { status: "created", order: r.insertId };
}
