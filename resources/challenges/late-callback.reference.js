// A unique key for the payment, a state machine for the order, and every
// notice acknowledged as the provider expects.
const schema = "CREATE UNIQUE INDEX uk_pay_flow_out_trade_no ON pay_flow (out_trade_no)";

function* statusOf(db, order) {
    const rows = yield db.query("SELECT status FROM orders WHERE order_id = ?", order);
    return rows[0].status;
}

function* handle(request, db) {
    if (request.trade_status === "FAILED") {
        // Only the payment in progress may fail; a late notice changes nothing.
        yield db.exec(
            "UPDATE orders SET status = 'FAILED' WHERE order_id = ? AND status = 'PAYING' AND trade_no = ?",
            request.order_id, request.out_trade_no);
        return { status: "success", result: yield* statusOf(db, request.order_id) };
    }
    yield db.begin();
    const flow = yield db.exec(
        "INSERT INTO pay_flow (out_trade_no, order_id, amount) VALUES (?, ?, ?)",
        request.out_trade_no, request.order_id, request.amount);
    if (flow.error === "unique-violation") {
        yield db.rollback();
        return { status: "success", result: yield* statusOf(db, request.order_id) };
    }
    const paid = yield db.exec(
        "UPDATE orders SET status = 'PAID', pay_time = ? WHERE order_id = ? AND status = 'PAYING'",
        now(), request.order_id);
    if (paid.rowsAffected === 0) {
        yield db.rollback();
        const status = yield* statusOf(db, request.order_id);
        return { status: status === "PAID" ? "success" : "rejected", result: status };
    }
    yield db.exec("INSERT INTO ledger (order_id, amount, created_at) VALUES (?, ?, ?)",
                  request.order_id, request.amount, now());
    yield db.commit();
    return { status: "success", result: "PAID" };
}
