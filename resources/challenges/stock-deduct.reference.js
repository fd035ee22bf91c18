// The order's state decides: only the request that moves it from CREATED to
// DEDUCTED takes the stock, in the same transaction.
function* handle(request, db) {
    yield db.begin();
    const claimed = yield db.exec(
        "UPDATE orders SET status = 'DEDUCTED' WHERE id = ? AND status = 'CREATED'",
        request.order_id);
    if (claimed.rowsAffected === 0) {
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
    yield db.commit();
    return { status: "success", result: "DEDUCTED" };
}
