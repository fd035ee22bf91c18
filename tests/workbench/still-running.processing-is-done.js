// challenge: still-running
// A plausible wrong fix: the dedup table's claim is right, but a repeat that
// finds the row answers with it whatever its status. While the first
// request is still at work the row has no order yet: the repeat is told
// success without a result, and its caller never comes back for it.
const schema = "CREATE TABLE dedup (request_id TEXT PRIMARY KEY, status TEXT NOT NULL, order_id INTEGER)";

function* handle(request, db) {
    const claim = yield db.exec("INSERT INTO dedup (request_id, status) VALUES (?, 'PROCESSING')",
                                request.key);
    if (claim.error === "unique-violation") {
        const found = yield db.query("SELECT order_id FROM dedup WHERE request_id = ?",
                                     request.key);
        return { status: "duplicate", order: found[0].order_id };
    }
    if (claim.error)
        return { status: "error" };
    const r = yield db.exec(
        "INSERT INTO orders (request_id, user_id, amount, created_at) VALUES (?, ?, ?, ?)",
        request.key, request.user_id, request.amount, now());
    yield db.exec("UPDATE dedup SET status = 'SUCCESS', order_id = ? WHERE request_id = ?",
                  r.insertId, request.key);
    return { status: "created", order: r.insertId };
}
