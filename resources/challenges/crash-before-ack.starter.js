// The message consumer. request: the message { msg_id, user_id, campaign,
// delivery }; issue the coupon, then ack the message on the broker's table.
// Checked with Redis (--redis private, or Redis in the window), the message
// comes from a Redis stream instead: it also has { stream, group, entry },
// and the ack is XACK.
const ack = "UPDATE broker SET status = 'ACKED', acked_at = ? WHERE msg_id = ? AND status = 'INFLIGHT'";

function* handle(message, db) {
    const c = yield db.exec(
        "INSERT INTO coupons (user_id, campaign, msg_id, issued_at) VALUES (?, ?, ?, ?)",
        message.user_id, message.campaign, message.msg_id, now());
    if (message.stream)
        yield redis.call("XACK", message.stream, message.group, message.entry);
    else
        yield db.exec(ack, now(), message.msg_id);
    return { status: "success", coupon: c.insertId };
}
