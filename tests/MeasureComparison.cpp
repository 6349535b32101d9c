// What tst_servermeasure compares (MeasureComparison.h).
#include "MeasureComparison.h"

#include "ScanFixtures.h"

#include "measure/MeasureProjection.h"
#include "mongo/LiveCollectionSource.h"

#include <QDir>
#include <QFile>

namespace fixtures {

// fields.csv rows by path.
std::map<QString, QStringList> fieldRows(const QString &dir)
{
    QFile f(QDir(dir).filePath(QStringLiteral("fields.csv")));
    std::map<QString, QStringList> rows;
    if (!f.open(QIODevice::ReadOnly))
        return rows;
    const QList<QByteArray> lines = f.readAll().split('\n');
    const QStringList header = QString::fromUtf8(lines.value(0)).split(QLatin1Char(','));
    for (qsizetype i = 1; i < lines.size(); ++i) {
        if (lines[i].isEmpty())
            continue;
        const QString line = QString::fromUtf8(lines[i]).trimmed();
        rows[line.section(QLatin1Char(','), 0, 0)] << line;
    }
    return rows;
}
int column(const QString &line, int index)
{
    return line.section(QLatin1Char(','), index, index).toInt();
}

namespace {
// The shape analysis's rows of summary.csv, which only a walk of every field fills.
QByteArray withoutShapeRows(const QByteArray &summary)
{
    QList<QByteArray> lines = summary.split('\n');
    lines.removeIf([](const QByteArray &l) {
        return l.startsWith("shape_flags,") || l.startsWith("shape_note,") ||
               l.startsWith("field_count_threshold,") || l.startsWith("depth_threshold,") ||
               l.startsWith("shape_explained_by_versions,") || l.startsWith("version_field,") ||
               l.startsWith("versions,") || l.startsWith("versions_note,");
    });
    return lines.join('\n');
}
// fields.csv's columns up to inside_array: the shape columns after it are the walk's.
constexpr int kMeasuredFieldColumns = 18;
QString measuredColumns(const QString &row)
{
    return row.section(QLatin1Char(','), 0, kMeasuredFieldColumns - 1);
}
} // namespace

// What differs between the client run's reports and the server run's, beyond what the
// server run states it does not measure (empty when nothing does): fields.csv has no row
// of a field without arrays, no shape columns, and of an array inside another's elements (its
// present column blank) the count and lengths only; recommendations.csv has no size target
// for those; the shape (shape_outliers.csv, schema_versions.csv, summary.csv's shape and version
// rows) is not measured, and
// summary.csv's shape_note says so.
QString measureDifferences(const QString &client, const QString &server)
{
    const auto c = fixtures::reportFiles(client);
    const auto s = fixtures::reportFiles(server);
    if (s.size() != c.size() || c.size() < 9)
        return QStringLiteral("%1 reports against %2").arg(s.size()).arg(c.size());
    for (const auto &[name, bytes] : c) {
        if (name == QLatin1String("fields.csv") || name == QLatin1String("recommendations.csv"))
            continue;
        if (name == QLatin1String("shape_outliers.csv") ||
            name == QLatin1String("schema_versions.csv")) {
            if (s.at(name).count('\n') > 1)
                return QStringLiteral("the server run lists %1").arg(name);
            continue;
        }
        if (name == QLatin1String("summary.csv")) {
            if (!s.at(name).contains("shape_note,shape not measured: the server"))
                return QStringLiteral("the server run's summary.csv does not say the shape "
                                      "was not measured");
            if (withoutShapeRows(s.at(name)) != withoutShapeRows(bytes))
                return QStringLiteral("summary.csv differs");
            continue;
        }
        if (s.at(name) != bytes)
            return QStringLiteral("%1 differs").arg(name);
    }
    const auto clientRows = fieldRows(client);
    const auto serverRows = fieldRows(server);
    if (serverRows.empty())
        return QStringLiteral("fields.csv is empty");
    // The columns of a lengths-only row: arrays, len_min..len_mean, len_p95, len_p99_9,
    // array_threshold, inside_array.
    const QList<int> lengthColumns{0, 3, 4, 5, 6, 7, 8, 9, 13, 14, 16, 17};
    auto only = [](const QString &row, const QList<int> &columns) {
        QStringList kept;
        for (int i : columns)
            kept << row.section(QLatin1Char(','), i, i);
        return kept.join(QLatin1Char(','));
    };
    for (const auto &[path, rows] : serverRows) {
        if (!clientRows.count(path))
            return QStringLiteral("%1 is not in the client run").arg(path);
        const QString server = rows.first(), client = clientRows.at(path).first();
        const bool lengthsOnly = server.section(QLatin1Char(','), 2, 2).isEmpty();
        if (lengthsOnly ? only(server, lengthColumns) != only(client, lengthColumns)
                        : measuredColumns(server) != measuredColumns(client))
            return QStringLiteral("fields.csv: %1 against %2").arg(server, client);
    }
    for (const auto &[path, rows] : clientRows)
        if (!serverRows.count(path) && column(rows.first(), 3) != 0)
            return QStringLiteral("%1 is missing from the server run").arg(rows.first());
    const QList<QByteArray> cr = c.at(QStringLiteral("recommendations.csv")).split('\n');
    const QList<QByteArray> sr = s.at(QStringLiteral("recommendations.csv")).split('\n');
    if (cr.size() != sr.size())
        return QStringLiteral("recommendations.csv has other rows");
    for (qsizetype i = 0; i < cr.size(); ++i) {
        QString expected = QString::fromUtf8(cr[i]);
        const QString got = QString::fromUtf8(sr[i]);
        if (got.section(QLatin1Char(','), 5, 5).isEmpty() &&
            !expected.section(QLatin1Char(','), 5, 5).isEmpty()) {
            QStringList parts = expected.split(QLatin1Char(','));
            parts[4].clear();
            parts[5].clear();
            expected = parts.join(QLatin1Char(','));
        }
        if (got != expected)
            return QStringLiteral("recommendations.csv: %1 against %2").arg(got, expected);
    }
    return {};
}

// The server's replies to the projection of `plan`, in natural order.
QList<QByteArray> measuredBy(const oe::SourceRef &source, const oe::MeasurePlan &plan)
{
    oe::LiveQuery query;
    query.database = source.database;
    query.collection = source.collection;
    query.selection.mode = oe::DocumentSelection::Mode::Full;
    query.projection = oe::MeasureProjection::build(plan);
    oe::LiveCollectionSource live(source.settings, query);
    oe::SourceError error;
    QList<QByteArray> replies;
    if (!live.open(&error))
        return {QByteArray("open: ") + error.message.toUtf8()};
    oe::DocumentBatch batch;
    for (;;) {
        const auto result = live.read(batch, 1u << 20, &error);
        for (const auto &doc : batch.documents)
            replies << QByteArray(reinterpret_cast<const char *>(batch.data(doc)),
                                  qsizetype(doc.length));
        if (result == oe::DocumentSource::ReadResult::Error)
            return {QByteArray("read: ") + error.message.toUtf8()};
        if (result == oe::DocumentSource::ReadResult::End)
            return replies;
    }
}

} // namespace fixtures
