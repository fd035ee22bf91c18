// The stock service. request: { order_id, sku, qty }; answer with
// { status: "success", result: "DEDUCTED" }, or
// { status: "rejected", result: "OUT_OF_STOCK" }.
function* handle(request, db) {
    const r = yield db.exec("UPDATE stock SET qty = qty - ?, version = version + 1 WHERE sku = ?",
                            request.qty, request.sku);
    if (r.error === "check-violation")
        return { status: "rejected", result: "OUT_OF_STOCK" };
    return { status: "success", result: "DEDUCTED" };
}
