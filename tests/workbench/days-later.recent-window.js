// challenge: days-later
// A plausible wrong fix: look for the same request among the last hour's
// orders, as a cache key with an expiry would, and keep no unique key. The
// compensation job's repeat a day later finds nothing: a second order, on
// every database.
function* handle(request, db) {
    const found = yield db.query(
        "SELECT id FROM orders WHERE request_id = ? AND created_at > ?",
        request.key, now() - 3600 * 1000);
    if (found.length > 0)
        return { status: "duplicate", order: found[0].id };
    const r = yield db.exec(
        "INSERT INTO orders (request_id, user_id, amount, created_at) VALUES (?, ?, ?, ?)",
        request.key, request.user_id, request.amount, now());
    if (r.error)
        return { status: "error" };
    return { status: "created", order: r.insertId };
}
