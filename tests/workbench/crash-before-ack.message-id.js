// challenge: crash-before-ack
// A plausible wrong fix: deduplicate on the message's id, as if a message
// were the event. A redelivery after the crash is caught; the producer's
// resend of the same event comes under a new id and issues a second coupon,
// on every database.
const schema = "CREATE UNIQUE INDEX uk_coupons_msg_id ON coupons (msg_id)";
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
