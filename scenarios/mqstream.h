// mq-consume's broker as a real Redis stream (--redis, SPEC section 10): the
// producer XADDs the message to its user's stream, the consumers of one
// group read it with XREADGROUP and XACK it after their work; an entry a
// consumer never acked stays in the group's pending-entries list, and once
// the visibility time has passed the other consumer takes it over with
// XAUTOCLAIM. The redelivery is Redis's own; the coupons stay in the
// database, where the verdict is read.
#pragma once

#include "task.h"

#include <QString>

namespace idem {

class Attempt;
struct RunConfig;

namespace mq {

// The message as a consumer has it: the broker's id, the business event in
// its body, which delivery of it this is, and on a stream where it is.
struct Message {
    QString id;
    qint64 userId = 0;
    QString campaign;
    int delivery = 0;
    QString stream;  // "coupon-events:50001"
    QString entry;   // the stream's id of it: "0-1"
};

// The message the attempt was handed (its payload).
Message fromPayload(const Attempt& a);
// Under mq-redelivery, `--duplicates N` means the acks of the first N
// deliveries are lost on their way to the broker.
int lostAcks(const RunConfig& c);

// The stream of a user's events (one per user, as a topic is partitioned
// by its key) and the consumers' group.
QString streamOf(qint64 userId);
QString group();
// Who reads delivery n: consumer-1, then the other one, and so on.
QString consumerOf(int delivery);
// How long an entry must have been idle, by Redis's clock, before
// XAUTOCLAIM takes it: the visibility time, at most 20 ms
// (the lab has already waited the visibility time in the run's clock).
qint64 claimIdleMs(const RunConfig& c);

// The consumer's read: the first delivery XREADGROUPs what is new in the
// stream, a later one XAUTOCLAIMs the entry and asks XPENDING how often it
// was delivered. An empty id: there was nothing to take.
Task<Message> readFromStream(Attempt& a, Message m);
// XACK: whether the entry was still pending.
Task<bool> ackOnStream(Attempt& a, Message m);

}  // namespace mq
}  // namespace idem
