// The business key decides: one coupon per user and campaign, whichever
// message brings the event, and the message is acked either way: on the
// broker's table, or with XACK where it came from a Redis stream.
const schema = "CREATE UNIQUE INDEX uk_coupons_user_campaign ON coupons (user_id, campaign)";
const ack = "UPDATE broker SET status = 'ACKED', acked_at = ? WHERE msg_id = ? AND status = 'INFLIGHT'";

function* handle(message, db) {
    const c = yield db.exec(
        "INSERT INTO coupons (user_id, campaign, msg_id, issued_at) VALUES (?, ?, ?, ?)",
        message.user_id, message.campaign, message.msg_id, now());
    if (c.error && c.error !== "unique-violation")
        return { status: "error" };
    if (message.stream)
        yield redis.call("XACK", message.stream, message.group, message.entry);
    else
        yield db.exec(ack, now(), message.msg_id);
    return { status: "success" };
}
