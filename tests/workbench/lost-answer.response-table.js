// challenge: lost-answer
// A plausible wrong fix: keep each answer in a table and give a repeat the
// answer kept, but write it after the order, and let the table be the only
// guard. A retry that comes before the first answer is kept (or after a
// crash between the two writes) finds nothing and places a second order.
// Every database.
const schema = "CREATE TABLE answers (request_id TEXT PRIMARY KEY, order_id INTEGER NOT NULL)";

function* handle(request, db) {
    const kept = yield db.query("SELECT order_id FROM answers WHERE request_id = ?", request.key);
    if (kept.length > 0)
        return { status: "duplicate", order: kept[0].order_id };
    const r = yield db.exec(
        "INSERT INTO orders (request_id, user_id, amount, created_at) VALUES (?, ?, ?, ?)",
        request.key, request.user_id, request.amount, now());
    if (r.error)
        return { status: "error" };
    yield db.exec("INSERT INTO answers (request_id, order_id) VALUES (?, ?)", request.key,
                  r.insertId);
    return { status: "created", order: r.insertId };
}
