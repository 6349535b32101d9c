#include "report/ShapeCsv.h"

#include "bson/BsonTypes.h"
#include "bson/DocumentId.h"
#include "output/CsvWriter.h"
#include "shape/ShapeQuery.h"

#include <algorithm>
#include <vector>

namespace oe {

QString ShapeCsv::typeCounts(const TypeCounts &counts)
{
    QStringList parts;
    for (int s : counts.byCount())
        parts << QStringLiteral("%1:%2").arg(BsonTypes::name(s)).arg(counts.n[std::size_t(s)]);
    return parts.join(QLatin1Char('|'));
}

QString ShapeCsv::exampleIds(const ShapeFlag &flag)
{
    QStringList ids;
    for (const ShapeFlag::Example &e : flag.examples)
        ids << (e.rawId.empty() ? QStringLiteral("(none)") : DocumentId::toRelaxedJson(e.rawId));
    return ids.join(QLatin1Char(' '));
}

QStringList ShapeCsv::header()
{
    return {QStringLiteral("kind"),
            QStringLiteral("path"),
            QStringLiteral("type"),
            QStringLiteral("share"),
            QStringLiteral("count"),
            QStringLiteral("total"),
            QStringLiteral("detail"),
            QStringLiteral("example_ids"),
            QStringLiteral("example_doc_indexes"),
            QStringLiteral("query")};
}

QStringList ShapeCsv::row(const ShapeFlag &f)
{
    QStringList indexes;
    for (const ShapeFlag::Example &e : f.examples)
        indexes << QString::number(e.docIndex);
    return {ShapeFlag::kindName(f.kind),
            QString::fromStdString(f.path),
            f.type,
            QString::number(f.share(), 'g', 6),
            QString::number(f.count),
            QString::number(f.total),
            f.detail,
            exampleIds(f),
            indexes.join(QLatin1Char(' ')),
            ShapeQuery::of(f).filter};
}

bool ShapeCsv::outliers(const ShapeReport &report, QIODevice *out)
{
    CsvWriter csv(out, header());
    for (const ShapeFlag &f : report.flags)
        csv.addRow(row(f));
    return csv.flush();
}

} // namespace oe
