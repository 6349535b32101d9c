#include "remedy/internal/RawValues.h"

#include "bson/BsonTypes.h"

namespace oe::rawvalues {

QString typeName(int type)
{
    return BsonTypes::names(BsonTypes::bit(type)).value(0, QStringLiteral("unknown"));
}

QString plainNameProblem(const QString &what, const QString &name)
{
    if (name.isEmpty() || name.startsWith(QLatin1Char('$')) || name.contains(QLatin1Char('.')) ||
        name.contains(QChar(0)))
        return QStringLiteral("%1 '%2': it must be a plain name (not empty, no '$' first, no "
                              "'.')")
            .arg(what, name);
    return {};
}

QString underscored(const QString &path)
{
    QString out = path;
    return out.replace(QLatin1Char('.'), QLatin1Char('_'));
}

void appendNotArray(bson_t *condition)
{
    bson_t no;
    bson_append_document_begin(condition, "$not", -1, &no);
    bson_append_utf8(&no, "$type", -1, "array", -1);
    bson_append_document_end(condition, &no);
}

} // namespace oe::rawvalues
