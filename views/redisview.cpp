#include "redisview.h"

#include "rediskeys.h"
#include "sqllogmodel.h"
#include "traceevent.h"

#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace idem {

RedisView::RedisView(QWidget* parent)
    : QWidget(parent),
      about_(new QLabel(this)),
      table_(new QTableWidget(this)),
      streamAbout_(new QLabel(this)),
      stream_(new QTableWidget(this)) {
    setObjectName(QStringLiteral("redisView"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSizeConstraint(QLayout::SetNoConstraint);
    // Each part: its sentence, then its table, read-only, a row at a time.
    const auto addPart = [layout](QLabel* about, const char* aboutName, QTableWidget* table,
                                  const char* tableName, int columns) {
        about->setObjectName(QLatin1String(aboutName));
        about->setWordWrap(true);
        layout->addWidget(about);
        table->setObjectName(QLatin1String(tableName));
        table->setColumnCount(columns);
        table->setEditTriggers(QAbstractItemView::NoEditTriggers);
        table->setSelectionBehavior(QAbstractItemView::SelectRows);
        table->verticalHeader()->hide();
        table->horizontalHeader()->setStretchLastSection(true);
        layout->addWidget(table, 1);
    };
    addPart(about_, "redisAbout", table_, "redisKeys", 5);
    addPart(streamAbout_, "redisStreamAbout", stream_, "redisStream", 7);
    refresh();
}

void RedisView::show(const QList<TraceEvent>& events, qsizetype from, qsizetype to, bool rebuild) {
    to = std::min(to, events.size());
    // A step forward reads its own events; a jump or another run all of them.
    if (rebuild || from != read_ || to < from) {
        keys_.clear();
        entries_.clear();
        used_ = false;
        from = 0;
    }
    advanceRedisKeys(keys_, events, from, to);
    advanceStreamEntries(entries_, events, from, to);
    used_ = used_ || usedRedis(events, from, to);
    read_ = to;
    now_ = to > 0 ? events.at(to - 1).tMs : 0;
    refresh();
}

QString RedisView::about() const {
    return about_->text();
}

void RedisView::refresh() {
    table_->setHorizontalHeaderLabels(
        {tr("Key"), tr("Value"), tr("Set by"), tr("Counts until"), tr("Time left")});
    table_->setAccessibleName(tr("The run's keys in Redis at this step"));
    const QList<RedisKey>& keys = keys_;
    const qint64 now = now_;
    table_->setRowCount(int(keys.size()));
    int expired = 0;
    for (int row = 0; row < keys.size(); ++row) {
        const RedisKey& k = keys[row];
        const bool over = k.expiresAt >= 0 && k.expiresAt <= now;
        expired += over ? 1 : 0;
        const QString until =
            k.expiresAt < 0 ? tr("no expiry") : SqlLogModel::formatTime(k.expiresAt);
        const QString left = k.expiresAt < 0 ? QStringLiteral("—")
                             : over          ? tr("expired (Redis not asked yet)")
                                             : SqlLogModel::formatTime(k.expiresAt - now);
        const QStringList cells{k.key, k.value,
                                tr("%1 at %2").arg(k.setBy, SqlLogModel::formatTime(k.setAt)),
                                until, left};
        for (int column = 0; column < cells.size(); ++column) {
            auto* item = new QTableWidgetItem(cells[column]);
            if (over)
                item->setForeground(palette().color(QPalette::Disabled, QPalette::Text));
            table_->setItem(row, column, item);
        }
    }
    table_->resizeColumnsToContents();
    refreshStreams();
    // A run with a stream and no keys: the keys' table gives way.
    table_->setVisible(!keys.isEmpty() || entries_.isEmpty());
    if (keys.isEmpty() && !entries_.isEmpty()) {
        about_->setText(tr("No plain keys in Redis at this step; the stream is below."));
    } else if (keys.isEmpty()) {
        about_->setText(used_ ? tr("Redis holds none of the run's keys at this step.")
                              : tr("Nothing has been sent to Redis yet."));
    } else {
        const QString held =
            tr("Keys in Redis at this step: %1. Their lives are the run's virtual time; Redis "
               "itself is told at most a second, and the lab waits until Redis reports a key "
               "gone before a command that needs it gone.")
                .arg(keys.size());
        // Two sentences: Chinese puts no space between them.
        about_->setText(
            expired == 0 ? held
                         : tr("%1 %2", "two sentences")
                               .arg(held, tr("Expired but not yet asked about: %1.").arg(expired)));
    }
}

void RedisView::refreshStreams() {
    stream_->setHorizontalHeaderLabels({tr("Stream"), tr("Entry"), tr("Message"), tr("Handed to"),
                                        tr("Deliveries"), tr("Idle"), tr("State")});
    stream_->setAccessibleName(
        tr("The run's stream entries and their consumer group at this step"));
    const bool any = !entries_.isEmpty();
    streamAbout_->setVisible(any);
    stream_->setVisible(any);
    if (!any)
        return;
    stream_->setRowCount(int(entries_.size()));
    int pending = 0;
    for (int row = 0; row < entries_.size(); ++row) {
        const StreamEntry& s = entries_[row];
        const bool isPending = !s.owner.isEmpty() && !s.acked;
        pending += isPending ? 1 : 0;
        const QString state = s.acked             ? tr("acked")
                              : s.owner.isEmpty() ? tr("not handed to anyone yet")
                                                  : tr("pending: handed over, not acked");
        const QString idle = isPending && s.deliveredAt >= 0
                                 ? SqlLogModel::formatTime(now_ - s.deliveredAt)
                                 : QStringLiteral("—");
        const QStringList cells{s.stream,
                                s.id,
                                s.body,
                                s.owner.isEmpty() ? QStringLiteral("—") : s.owner,
                                QString::number(s.deliveries),
                                idle,
                                state};
        for (int column = 0; column < cells.size(); ++column) {
            auto* item = new QTableWidgetItem(cells[column]);
            if (s.acked)
                item->setForeground(palette().color(QPalette::Disabled, QPalette::Text));
            stream_->setItem(row, column, item);
        }
    }
    stream_->resizeColumnsToContents();
    streamAbout_->setText(
        tr("Stream entries: %1, of which pending (handed to a consumer, not acked): %2. A "
           "pending entry idle past the visibility time is claimed by the other consumer "
           "(XAUTOCLAIM), and its delivery count grows.")
            .arg(entries_.size())
            .arg(pending));
}

QSize RedisView::sizeHint() const {
    const int line = fontMetrics().height();
    return {line * 16, line * 8};
}

QSize RedisView::minimumSizeHint() const {
    const int line = fontMetrics().height();
    return {line * 4, line * 4};
}

void RedisView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::PaletteChange)
        refresh();
    QWidget::changeEvent(event);
}

}  // namespace idem
