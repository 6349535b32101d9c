#include "LiveQuery.h"

#include <bson/bson.h>

namespace oe {

QString LiveQuery::validateFilter(const QString &filter)
{
    if (filter.trimmed().isEmpty())
        return {};
    const QByteArray json = filter.toUtf8();
    bson_error_t error;
    bson_t *doc = bson_new_from_json(reinterpret_cast<const std::uint8_t *>(json.constData()),
                                     json.size(), &error);
    if (!doc)
        return QStringLiteral("invalid filter (extended JSON): %1")
            .arg(QString::fromUtf8(error.message));
    bson_destroy(doc);
    return {};
}

} // namespace oe
