#include "alertcounts.h"

#include "sqlconnection.h"

namespace idem {

QMap<QString, qint64> alertCountsAtEnd(SqlConnection& db) {
    QMap<QString, qint64> counts;
    const SqlResult r = db.exec(QStringLiteral("SELECT biz_key, count FROM alerts"));
    for (const QVariantList& row : r.data)
        counts[row.value(0).toString()] += row.value(1).toLongLong();
    return counts;
}

}  // namespace idem
