// challenge: stock-deduct
// A plausible wrong fix: read the order's status, and deduct only when it is
// still CREATED, all in one transaction. SQLite's single writer runs the two
// transactions one after the other; on MariaDB and PostgreSQL both read
// CREATED before either writes, and the stock is taken twice.
function* handle(request, db) {
    yield db.begin();
    const order = yield db.query("SELECT status FROM orders WHERE id = ?", request.order_id);
    if (order.length === 0 || order[0].status !== "CREATED") {
        yield db.rollback();
        return { status: "success", result: "DEDUCTED" };
    }
    const taken = yield db.exec(
        "UPDATE stock SET qty = qty - ?, version = version + 1 WHERE sku = ?",
        request.qty, request.sku);
    if (taken.error === "check-violation") {
        yield db.rollback();
        return { status: "rejected", result: "OUT_OF_STOCK" };
    }
    if (taken.error) {
        yield db.rollback();
        return { status: "error" };
    }
    const moved = yield db.exec("UPDATE orders SET status = 'DEDUCTED' WHERE id = ?",
                                request.order_id);
    if (moved.error) {
        yield db.rollback();
        return { status: "error" };
    }
    const c = yield db.commit();
    if (c.error)
        return { status: "error" };
    return { status: "success", result: "DEDUCTED" };
}
