#include "mongo/DocumentQuery.h"

#include "bson/internal/BsonDocument.h"

namespace oe {

QString DocumentQuery::problemOf(const QString &part, const QString &json)
{
    if (json.trimmed().isEmpty())
        return {};
    bson_error_t error;
    if (!BsonDocument::fromJson(json.toUtf8(), &error))
        return QStringLiteral("%1: not an extended JSON document (%2)")
            .arg(part, QString::fromUtf8(error.message).simplified());
    return {};
}

QString DocumentQuery::problem() const
{
    for (const auto &[part, json] : {std::pair{QStringLiteral("filter"), filter},
                                     std::pair{QStringLiteral("projection"), projection},
                                     std::pair{QStringLiteral("sort"), sort}})
        if (const QString p = problemOf(part, json); !p.isEmpty())
            return p;
    if (skip < 0)
        return QStringLiteral("skip: %1 is below 0").arg(skip);
    if (limit < 1 || limit > kMaxLimit)
        return QStringLiteral("limit: %1 is not between 1 and %2").arg(limit).arg(kMaxLimit);
    return {};
}

} // namespace oe
