// The payment callback handler. request: { order_id, amount, trade_status
// ("SUCCESS" or "FAILED"), out_trade_no }; answer with
// { status: "success" | "rejected", result: <the order's status> }.
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
    yield db.exec("UPDATE orders SET status = 'PAID', pay_time = ? WHERE order_id = ?",
                  now(), request.order_id);
    yield db.exec("INSERT INTO ledger (order_id, amount, created_at) VALUES (?, ?, ?)",
                  request.order_id, request.amount, now());
    yield db.commit();
    return { status: "success", result: "PAID" };
}
