// challenge: still-running
// A plausible wrong fix: a repeat that finds the claim still PROCESSING
// takes it for the claim of a request that died, deletes it and places the
// order itself. The first request was only slow: two orders. Every database.
const schema = "CREATE TABLE dedup (request_id TEXT PRIMARY KEY, status TEXT NOT NULL, order_id INTEGER)";

function* place(request, db) {
    const r = yield db.exec(
        "INSERT INTO orders (request_id, user_id, amount, created_at) VALUES (?, ?, ?, ?)",
        request.key, request.user_id, request.amount, now());
    yield db.exec("UPDATE dedup SET status = 'SUCCESS', order_id = ? WHERE request_id = ?",
                  r.insertId, request.key);
    return { status: "created", order: r.insertId };
}

function* handle(request, db) {
    const claim = yield db.exec("INSERT INTO dedup (request_id, status) VALUES (?, 'PROCESSING')",
                                request.key);
    if (claim.error === "unique-violation") {
        const found = yield db.query("SELECT status, order_id FROM dedup WHERE request_id = ?",
                                     request.key);
        if (found[0].status === "SUCCESS")
            return { status: "duplicate", order: found[0].order_id };
        yield db.exec("DELETE FROM dedup WHERE request_id = ? AND status = 'PROCESSING'",
                      request.key);
        const again = yield db.exec(
            "INSERT INTO dedup (request_id, status) VALUES (?, 'PROCESSING')", request.key);
        if (again.error)
            return { status: "in-progress" };
        return yield* place(request, db);
    }
    if (claim.error)
        return { status: "error" };
    return yield* place(request, db);
}
