// challenge: late-callback
// A plausible wrong fix: the unique key on the payment stops a second
// credit, but a notice sets the order's status to what it says. The late
// FAILED notice moves a PAID order back to FAILED: the order and the money
// disagree, on every database.
const schema = "CREATE UNIQUE INDEX uk_pay_flow_out_trade_no ON pay_flow (out_trade_no)";

function* handle(request, db) {
    if (request.trade_status === "FAILED") {
        yield db.exec("UPDATE orders SET status = 'FAILED' WHERE order_id = ?", request.order_id);
        return { status: "success", result: "FAILED" };
    }
    yield db.begin();
    const flow = yield db.exec(
        "INSERT INTO pay_flow (out_trade_no, order_id, amount) VALUES (?, ?, ?)",
        request.out_trade_no, request.order_id, request.amount);
    if (flow.error === "unique-violation") {
        yield db.rollback();
        return { status: "success", result: "PAID" };
    }
    if (flow.error) {
        yield db.rollback();
        return { status: "error" };
    }
    yield db.exec("UPDATE orders SET status = 'PAID', pay_time = ? WHERE order_id = ?",
                  now(), request.order_id);
    yield db.exec("INSERT INTO ledger (order_id, amount, created_at) VALUES (?, ?, ?)",
                  request.order_id, request.amount, now());
    const c = yield db.commit();
    if (c.error)
        return { status: "error" };
    return { status: "success", result: "PAID" };
}
