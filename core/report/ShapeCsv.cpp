#include "report/ShapeCsv.h"

#include "bson/BsonTypes.h"
#include "bson/DocumentId.h"
#include "output/CsvWriter.h"
#include "shape/ShapeQuery.h"

#include <QJsonArray>
#include <QJsonDocument>

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

QString ShapeCsv::membersOf(const ShapeFlag &flag)
{
    if (flag.members.empty())
        return {};
    QJsonArray names;
    for (const std::string &m : flag.members)
        names.append(QString::fromStdString(m));
    return QString::fromUtf8(QJsonDocument(names).toJson(QJsonDocument::Compact));
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
            QStringLiteral("query"),
            QStringLiteral("version"),
            QStringLiteral("explained_by"),
            QStringLiteral("fields")};
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
            ShapeQuery::of(f).filter,
            f.version ? f.version->label : QString(),
            f.explainedBy,
            membersOf(f)};
}

bool ShapeCsv::outliers(const ShapeReport &report, QIODevice *out)
{
    CsvWriter csv(out, header());
    for (const ShapeFlag &f : report.listed())
        csv.addRow(row(f));
    return csv.flush();
}

QString ShapeCsv::shares(const SchemaVersions &versions)
{
    QStringList parts;
    for (const SchemaVersions::Share &s : versions.shares)
        parts << QStringLiteral("%1:%2").arg(s.value).arg(s.documents);
    return parts.join(QLatin1Char('|'));
}

bool ShapeCsv::versions(const ShapeReport &report, QIODevice *out)
{
    CsvWriter csv(out,
                  {QStringLiteral("field"), QStringLiteral("value"), QStringLiteral("documents"),
                   QStringLiteral("share"), QStringLiteral("flags"), QStringLiteral("history")});
    const SchemaVersions &v = report.versions;
    for (const SchemaVersions::Share &s : v.shares) {
        const auto flags = std::count_if(v.flags.begin(), v.flags.end(), [&](const ShapeFlag &f) {
            return f.version && f.version->raw == s.raw;
        });
        csv.addRow({QString::fromStdString(v.field), s.value, QString::number(s.documents),
                    QString::number(v.share(s), 'g', 6), QString::number(flags), history(v, s)});
    }
    return csv.flush();
}

QString ShapeCsv::history(const SchemaVersions &versions, const SchemaVersions::Share &share)
{
    QStringList points;
    for (const SchemaVersions::Point &p : versions.history) {
        std::uint64_t n = 0;
        for (const SchemaVersions::Share &s : p.shares)
            if (s.value == share.value)
                n = s.documents;
        points << QStringLiteral("%1 %2")
                      .arg(p.at.toUTC().toString(Qt::ISODateWithMs))
                      .arg(p.documents ? double(n) / double(p.documents) : 0.0, 0, 'g', 6);
    }
    return points.join(QLatin1Char('|'));
}

} // namespace oe
