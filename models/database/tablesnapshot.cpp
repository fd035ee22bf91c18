#include "tablesnapshot.h"

namespace idem {

QVariant tableRowsToValue(const TableRows& table) {
    QVariantList rows;
    rows.reserve(table.rows.size());
    for (const QVariantList& row : table.rows) rows << QVariant(row);
    QVariantMap m;
    m.insert(QStringLiteral("table"), table.table);
    m.insert(QStringLiteral("columns"), table.columns);
    m.insert(QStringLiteral("types"), table.types);
    m.insert(QStringLiteral("rows"), rows);
    if (table.versioned) {
        QVariantList versions;
        versions.reserve(table.versions.size());
        for (const QStringList& v : table.versions) versions << QVariant(v);
        m.insert(QStringLiteral("versions"), versions);
    }
    if (table.truncated)
        m.insert(QStringLiteral("truncated"), true);
    if (table.hasOpen) {
        QVariantList open, versions;
        open.reserve(table.open.size());
        for (const QVariantList& row : table.open) open << QVariant(row);
        m.insert(QStringLiteral("open_rows"), open);
        if (table.versioned) {
            for (const QStringList& v : table.openVersions) versions << QVariant(v);
            m.insert(QStringLiteral("open_versions"), versions);
        }
    }
    return m;
}

TableRows tableRowsFromValue(const QVariant& value) {
    const QVariantMap m = value.toMap();
    TableRows t;
    t.table = m.value(QStringLiteral("table")).toString();
    t.columns = m.value(QStringLiteral("columns")).toStringList();
    t.types = m.value(QStringLiteral("types")).toStringList();
    for (const QVariant& row : m.value(QStringLiteral("rows")).toList()) t.rows << row.toList();
    t.versioned = m.contains(QStringLiteral("versions"));
    for (const QVariant& v : m.value(QStringLiteral("versions")).toList())
        t.versions << v.toStringList();
    t.truncated = m.value(QStringLiteral("truncated")).toBool();
    t.hasOpen = m.contains(QStringLiteral("open_rows"));
    for (const QVariant& row : m.value(QStringLiteral("open_rows")).toList())
        t.open << row.toList();
    for (const QVariant& v : m.value(QStringLiteral("open_versions")).toList())
        t.openVersions << v.toStringList();
    return t;
}

TraceEvent tablesEvent(const QVariantList& tables) {
    TraceEvent e;
    e.kind = EventKind::Tables;
    e.actor = nameId(u"database");
    e.fields.set("tables", tables);
    return e;
}

void keepReturnedValues(TraceEvent& event, const QList<QVariantList>& rows) {
    QVariantList values;
    const qsizetype kept = std::min(rows.size(), kMaxRecordedRows);
    values.reserve(kept);
    for (qsizetype i = 0; i < kept; ++i) values << QVariant(rows[i]);
    event.fields.set("values", values);
    if (kept < rows.size())
        event.fields.set("values_truncated", true);
}

bool returnedValues(const TraceEvent& event, QList<QVariantList>* rows) {
    rows->clear();
    if (event.fields.flag("values_truncated"))
        return false;
    if (!event.fields.contains("values"))
        return event.counts != RowCount::Returned || event.code != 0 || event.rows == 0;
    for (const QVariant& row : event.fields.value("values").toList()) *rows << row.toList();
    return true;
}

}  // namespace idem
