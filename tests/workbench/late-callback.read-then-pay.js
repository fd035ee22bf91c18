// challenge: late-callback
// A plausible wrong fix: the state machine is asked, not made to decide.
// It reads the order's status and credits when it is not PAID yet; the
// late FAILED notice is handled with care. Two SUCCESS notices at the same
// moment both read PAYING, and the payment is credited twice. Every
// database: nothing makes the read and the write one step.
function* handle(request, db) {
    if (request.trade_status === "FAILED") {
        yield db.exec(
            "UPDATE orders SET status = 'FAILED' WHERE order_id = ? AND status = 'PAYING' AND trade_no = ?",
            request.order_id, request.out_trade_no);
        return { status: "success", result: "FAILED" };
    }
    const order = yield db.query("SELECT status FROM orders WHERE order_id = ?", request.order_id);
    if (order[0].status === "PAID")
        return { status: "success", result: "PAID" };
    yield db.exec("UPDATE orders SET status = 'PAID', pay_time = ? WHERE order_id = ?",
                  now(), request.order_id);
    yield db.exec("INSERT INTO pay_flow (out_trade_no, order_id, amount) VALUES (?, ?, ?)",
                  request.out_trade_no, request.order_id, request.amount);
    yield db.exec("INSERT INTO ledger (order_id, amount, created_at) VALUES (?, ?, ?)",
                  request.order_id, request.amount, now());
    return { status: "success", result: "PAID" };
}
