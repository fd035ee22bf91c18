// The Redis view, beside the tables when a run keeps keys in a real Redis
// (SPEC section 10): at the step on show, each key with its value, who set
// it and until when it counts, the time it has left, and a key whose life
// is over before Redis was asked about it marked expired. Read from the
// trace (rediskeys.h): a run, its replay and a lesson played from its
// recording show the same. Where the run used a stream, a second table
// below: each entry, whom it was handed to, how often, how long ago, and
// whether it was acked (the consumer group's pending-entries list).
#pragma once

#include "rediskeys.h"

#include <QWidget>

class QLabel;
class QTableWidget;

namespace idem {

struct TraceEvent;

class RedisView : public QWidget {
    Q_OBJECT
public:
    explicit RedisView(QWidget* parent = nullptr);

    // The keys after events [0, to) (the step on show); events [from, to)
    // are new since the last showing unless `rebuild` (then all are read).
    void show(const QList<TraceEvent>& events, qsizetype from, qsizetype to, bool rebuild);
    QTableWidget* table() const { return table_; }
    QTableWidget* streamTable() const { return stream_; }
    QString about() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void changeEvent(QEvent* event) override;

private:
    void refresh();
    void refreshStreams();

    QLabel* about_;
    QTableWidget* table_;
    QLabel* streamAbout_;
    QTableWidget* stream_;
    QList<StreamEntry> entries_;
    // What the step on show gives, kept to be said again in another language.
    QList<RedisKey> keys_;
    qsizetype read_ = 0;  // the events keys_ stands after
    qint64 now_ = 0;
    bool used_ = false;
};

}  // namespace idem
