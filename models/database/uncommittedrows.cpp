// A server's rows as its open transactions have made them, what they have
// not committed included, read by the lab's reading connection and never
// through an attempt's own session, so that nothing the run does changes:
// on MariaDB a plain read at READ UNCOMMITTED (no lock, no snapshot); on
// PostgreSQL, which shows no transaction another's uncommitted rows, the
// table's pages themselves (pageinspect, shipped with postgresql-15), each
// row version kept when the transaction that wrote it has committed or is
// still open, and no committed or open transaction has deleted it.
#include "serverconnection.h"

#include <QtEndian>

#include <algorithm>

namespace idem {

namespace {

using live::ServerKind;

// The schema pageinspect is installed in ("public"), installing it there
// once; empty where the server will not have it (a --connect user who is
// not a superuser).
QString pageinspectSchema(ServerConnection& c) {
    const QString find = QStringLiteral(
        "SELECT n.nspname FROM pg_extension AS e\n"
        "JOIN pg_namespace AS n ON n.oid = e.extnamespace\n"
        "WHERE e.extname = 'pageinspect'");
    SqlResult found = c.exec(find);
    if (found.ok && !found.empty())
        return found.value().toString();
    // Another run of the server may install it at the same moment.
    c.exec(QStringLiteral("CREATE EXTENSION IF NOT EXISTS pageinspect SCHEMA public"));
    found = c.exec(find);
    return found.ok && !found.empty() ? found.value().toString() : QString();
}

// One attribute of a row version as pageinspect gives it (the bytes of the
// tuple, varlena header included), as the lab's sessions read such a value;
// false for a type or a form (compressed, kept aside) not read here.
bool decodeAttribute(const QString& type, const QByteArray& bytes, QVariant* value) {
    const auto* data = reinterpret_cast<const uchar*>(bytes.constData());
    const qsizetype n = bytes.size();
    if (type == QLatin1String("bigint") && n == 8) {
        *value = QVariant(qint64(qFromLittleEndian<qint64>(data)));
    } else if (type == QLatin1String("integer") && n == 4) {
        *value = QVariant(qint64(qFromLittleEndian<qint32>(data)));
    } else if (type == QLatin1String("smallint") && n == 2) {
        *value = QVariant(qint64(qFromLittleEndian<qint16>(data)));
    } else if (type == QLatin1String("boolean") && n == 1) {
        *value = QVariant(data[0] != 0);
    } else if (type == QLatin1String("double precision") && n == 8) {
        *value = QVariant(qFromLittleEndian<double>(data));
    } else if (type == QLatin1String("text") || type.startsWith(QLatin1String("character"))) {
        if (n < 1)
            return false;
        qsizetype header = 0, length = 0;
        if ((data[0] & 0x01) != 0) {  // a short value: one byte of header
            if (data[0] == 0x01)
                return false;  // kept aside (TOAST)
            header = 1;
            length = data[0] >> 1;
        } else {
            if (n < 4)
                return false;
            const quint32 word = qFromLittleEndian<quint32>(data);
            if ((word & 0x03) != 0)
                return false;  // compressed
            header = 4;
            length = qsizetype(word >> 2);
        }
        if (length < header || length > n)
            return false;
        QString text = QString::fromUtf8(bytes.constData() + header, length - header);
        if (type.startsWith(QLatin1String("character(")))
            text = text.trimmed();  // blank-padded, as the server reads it
        *value = text;
    } else {
        return false;
    }
    return true;
}

// A row version's 32-bit transaction id as the full one pg_xact_status
// takes: in the epoch of `w.x` (a recent full id), or the one before or
// after where it is more than 2^31 away from it.
QString fullXid(const QString& xid) {
    return QStringLiteral(
               "((w.x >> 32 << 32) + %1\n"
               "  - CASE WHEN %1 > (w.x & 4294967295) + 2147483648 THEN 4294967296 ELSE 0 END\n"
               "  + CASE WHEN %1 + 2147483648 < (w.x & 4294967295) THEN 4294967296 ELSE 0 "
               "END)::text::xid8")
        .arg(xid);
}

bool readPages(ServerConnection& c, const QString& table, const QStringList& columns,
               QList<QVariantList>* rows, bool* unavailable) {
    // Nothing uncommitted without a transaction that has written.
    const SqlResult writing =
        c.exec(QStringLiteral("SELECT count(*) FROM pg_stat_activity\n"
                              "WHERE backend_xid IS NOT NULL AND pid <> pg_backend_pid()\n"
                              "  AND datname = current_database()"));
    if (!writing.ok || writing.value().toLongLong() == 0)
        return false;
    const QString schema = pageinspectSchema(c);
    if (schema.isEmpty()) {
        *unavailable = true;
        return false;
    }
    const SqlResult attributes =
        c.exec(QStringLiteral("SELECT attname, format_type(atttypid, "
                              "atttypmod), attisdropped\n"
                              "FROM pg_attribute\n"
                              "WHERE attrelid = ?::regclass AND attnum > 0\n"
                              "ORDER BY attnum"),
               {table});
    if (!attributes.ok || attributes.empty())
        return false;
    QStringList names, types;
    for (const QVariantList& a : attributes.data) {
        names << (a.value(2).toBool() ? QString() : a.value(0).toString());
        types << a.value(1).toString();
    }
    // Each row version the page holds, with whether its transactions have
    // committed, are open, or rolled back (xids widened with the epoch of
    // the newest: the run's are recent).
    const QString p = schema;
    const QString read =
        QStringLiteral(
            "WITH newest AS (\n"
            "  SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint AS x),\n"
            "versions AS (\n"
            "  SELECT b.n AS page, i.lp, i.t_xmin::text::bigint AS xmin,\n"
            "         i.t_xmax::text::bigint AS xmax, i.t_infomask AS mask,\n"
            "         %1.tuple_data_split(?::regclass::oid, i.t_data, i.t_infomask,\n"
            "                             i.t_infomask2, i.t_bits) AS attrs\n"
            "  FROM generate_series(0, (pg_relation_size(?::regclass)\n"
            "         / current_setting('block_size')::bigint)::int - 1) AS b(n),\n"
            "       LATERAL %1.heap_page_items(%1.get_raw_page(?, b.n)) AS i\n"
            "  WHERE i.lp_flags = 1),\n"
            "known AS (\n"
            "  SELECT v.*,\n"
            "    pg_xact_status(%2) AS born,\n"
            "    CASE WHEN v.xmax = 0 THEN NULL ELSE pg_xact_status(%3) END AS died\n"
            "  FROM versions AS v, newest AS w)\n"
            "SELECT k.page, k.lp, k.xmin::text, k.xmax::text, a.n, encode(a.v, 'hex')\n"
            "FROM known AS k, unnest(k.attrs) WITH ORDINALITY AS a(v, n)\n"
            "WHERE coalesce(k.born, 'committed') <> 'aborted'\n"
            "  AND (k.xmax = 0 OR k.mask & 128 <> 0 OR k.mask & 4096 <> 0\n"
            "       OR k.died = 'aborted')\n"
            "ORDER BY k.page, k.lp, a.n")
            .arg(p, fullXid(QStringLiteral("v.xmin")), fullXid(QStringLiteral("v.xmax")));
    const SqlResult r = c.exec(read, {table, table, table});
    if (!r.ok)
        return false;
    // One row per attribute: gathered into the row of its version.
    QList<QVariantList> found;
    QVariantList values;
    QStringList version;
    QString at;
    const auto close = [&] {
        if (at.isEmpty())
            return;
        QVariantList row;
        for (const QString& column : columns) {
            if (column == QLatin1String("xmin") && !names.contains(column))
                row << version.value(0);
            else if (column == QLatin1String("xmax") && !names.contains(column))
                row << version.value(1);
            else
                row << values.value(names.indexOf(column));
        }
        found << row;
    };
    for (const QVariantList& a : r.data) {
        const QString here = a.value(0).toString() + QLatin1Char('/') + a.value(1).toString();
        if (here != at) {
            close();
            at = here;
            values = QVariantList(names.size());
            // What the committed rows show beside a version: 0 for no xmax
            // (a lock alone leaves it as the locker's).
            version = {a.value(2).toString(), a.value(3).toString()};
        }
        const qsizetype n = a.value(4).toLongLong() - 1;
        if (n < 0 || n >= names.size() || a.value(5).isNull())
            continue;
        QVariant value;
        if (!decodeAttribute(types[n], QByteArray::fromHex(a.value(5).toString().toLatin1()),
                             &value)) {
            if (!names[n].isEmpty() && columns.contains(names[n]))
                return false;  // a column this lab cannot read from a page
            continue;
        }
        values[n] = value;
    }
    close();
    // In the order the reader shows: by the first column.
    std::stable_sort(found.begin(), found.end(), [](const QVariantList& a, const QVariantList& b) {
        return QVariant::compare(a.value(0), b.value(0)) == QPartialOrdering::Less;
    });
    *rows = std::move(found);
    return true;
}

}  // namespace

bool ServerConnection::readUncommitted(const QString& table, const QStringList& columns,
                                       QList<QVariantList>* rows) {
    if (!isOpen() || columns.isEmpty())
        return false;
    if (session_->kind() == ServerKind::Postgres) {
        if (noPageinspect_)
            return false;
        bool unavailable = false;
        const bool read = readPages(*this, table, columns, rows, &unavailable);
        noPageinspect_ = unavailable;
        return read;
    }
    // MariaDB: the next statement alone reads at READ UNCOMMITTED.
    QStringList select;
    for (QString column : columns)
        select << QLatin1Char('`') + column.replace(QLatin1Char('`'), QStringLiteral("``")) +
                      QLatin1Char('`');
    QString name = table;
    name.replace(QLatin1Char('`'), QStringLiteral("``"));
    if (!exec(QStringLiteral("SET TRANSACTION ISOLATION LEVEL READ UNCOMMITTED")).ok)
        return false;
    const SqlResult r = exec(QStringLiteral("SELECT %1 FROM `%2` ORDER BY %3")
                                 .arg(select.join(QStringLiteral(", ")), name, select.first()));
    if (!r.ok)
        return false;
    *rows = r.data;
    return true;
}

}  // namespace idem
