#include "ReportTruth.h"

#include "CsvTestReader.h"
#include "SummaryCsv.h"

#include <QStringList>

#include <map>

namespace fixtures {

namespace {

// A report file's rows under its header, a cell looked up by column name.
struct CsvTable
{
    QStringList header;
    QList<QStringList> rows;

    static CsvTable read(const QString &path)
    {
        CsvTable table;
        table.rows = csvtest::readFile(path);
        if (!table.rows.isEmpty())
            table.header = table.rows.takeFirst();
        return table;
    }
    QString cell(const QStringList &row, const char *column) const
    {
        return row.value(header.indexOf(QLatin1String(column)));
    }
};

// The figures a report states otherwise than the test computed them, one line each.
struct Differences
{
    QStringList lines;

    void expect(const QString &figure, const QString &reported, const QString &computed)
    {
        if (reported != computed)
            lines << QStringLiteral("%1: reported %2, computed %3").arg(figure, reported, computed);
    }
};

QString number(std::uint64_t n)
{
    return QString::number(qulonglong(n));
}

// fields.csv's top-level paths (no dot) against the documents' top-level fields: which
// there are, where present, how often an array, its shortest and longest, its bytes.
void compareTopLevelFields(const CsvTable &fields, const CollectionTruth &truth, Differences &d)
{
    QStringList reported;
    for (const QStringList &row : fields.rows)
        if (!fields.cell(row, "path").contains(QLatin1Char('.')))
            reported << fields.cell(row, "path");
    QStringList computed;
    for (const auto &[name, field] : truth.fields)
        computed << name;
    reported.sort();
    d.expect(QStringLiteral("fields.csv top-level paths"), reported.join(QLatin1Char(' ')),
             computed.join(QLatin1Char(' ')));
    for (const QStringList &row : fields.rows) {
        const QString path = fields.cell(row, "path");
        const auto it = truth.fields.find(path);
        if (it == truth.fields.end())
            continue; // nested (a top-level path the documents lack differs above)
        const FieldTruth &f = it->second;
        const auto length = [&](std::uint64_t n) { return f.arrays ? number(n) : QString(); };
        for (const auto &[column, value] :
             {std::pair{"present", number(f.present)}, std::pair{"arrays", number(f.arrays)},
              std::pair{"len_min", length(f.minLength)}, std::pair{"len_max", length(f.maxLength)},
              std::pair{"bytes_total", number(f.bytes)}})
            d.expect(path + QLatin1Char(' ') + QLatin1String(column), fields.cell(row, column),
                     value);
    }
}
// The documents larger than the size threshold summary.csv states: their count there, and
// their sizes in outliers.csv's size rows (largest first; not the 16 MiB limit's rows).
void compareSizeOutliers(const QString &dir, const SummaryCsv &summary,
                         const CollectionTruth &truth, Differences &d)
{
    const QString threshold = summary.value(QStringLiteral("size_threshold"));
    const QList<std::uint64_t> above = truth.sizesAbove(threshold.toULongLong());
    d.expect(QStringLiteral("size_outliers over %1").arg(threshold),
             summary.value(QStringLiteral("size_outliers")), number(std::uint64_t(above.size())));
    QStringList computed;
    for (const std::uint64_t size : above)
        computed << number(size);
    const CsvTable outliers = CsvTable::read(dir + QStringLiteral("/outliers.csv"));
    QStringList reported;
    for (const QStringList &row : outliers.rows) {
        const QString reason = outliers.cell(row, "reason");
        if (reason.startsWith(QLatin1String("size_")) &&
            !reason.startsWith(QLatin1String("size_over_")))
            reported << outliers.cell(row, "bson_size");
    }
    d.expect(QStringLiteral("outliers.csv sizes over %1").arg(threshold),
             reported.join(QLatin1Char(' ')), computed.join(QLatin1Char(' ')));
}
// The documents with a top-level array longer than its path's threshold (fields.csv's
// array_threshold: the one global threshold, or each path's own) against array_outliers.
// Every array of these collections is a top-level field: a nested one is a difference.
void compareArrayOutliers(const CsvTable &fields, const SummaryCsv &summary,
                          const CollectionTruth &truth, Differences &d)
{
    std::map<QString, std::uint64_t> thresholds;
    for (const QStringList &row : fields.rows) {
        const QString path = fields.cell(row, "path");
        if (fields.cell(row, "arrays") == QLatin1String("0"))
            continue;
        if (path.contains(QLatin1Char('.')))
            d.lines << QStringLiteral("%1: an array below the top level").arg(path);
        thresholds[path] = fields.cell(row, "array_threshold").toULongLong();
    }
    d.expect(QStringLiteral("array_outliers"), summary.value(QStringLiteral("array_outliers")),
             number(truth.documentsWithArrayAbove(thresholds)));
}

} // namespace

QString reportDifferences(const QString &dir, const CollectionTruth &truth)
{
    Differences d;
    const auto summary = SummaryCsv::read(dir);
    d.expect(QStringLiteral("documents"), summary.value(QStringLiteral("documents")),
             number(std::uint64_t(truth.documents.size())));
    d.expect(QStringLiteral("size_min"), summary.value(QStringLiteral("size_min")),
             number(truth.minSize()));
    d.expect(QStringLiteral("size_max"), summary.value(QStringLiteral("size_max")),
             number(truth.maxSize()));
    d.expect(QStringLiteral("size_total"), summary.value(QStringLiteral("size_total")),
             number(truth.totalSize()));
    const CsvTable fields = CsvTable::read(dir + QStringLiteral("/fields.csv"));
    compareTopLevelFields(fields, truth, d);
    compareSizeOutliers(dir, summary, truth, d);
    compareArrayOutliers(fields, summary, truth, d);
    return d.lines.isEmpty() ? QString()
                             : dir + QStringLiteral(": ") + d.lines.join(QStringLiteral("; "));
}

} // namespace fixtures
