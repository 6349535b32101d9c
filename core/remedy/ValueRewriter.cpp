#include "remedy/ValueRewriter.h"

#include "bson/internal/BsonDocument.h"
#include "bson/internal/BsonRaw.h"
#include "remedy/RemedyRegistry.h"

namespace oe {

RewriteResult ValueRewriter::rewrite(const RewriteConfig &config, const QByteArray &raw)
{
    return RemedyRegistry::of(config.kind).rewrite(config, raw);
}

QString ValueRewriter::toJson(const QByteArray &raw)
{
    BsonDocument holder;
    if (!bsonraw::append(holder.get(), "v", 1, raw))
        return {};
    char *text = bson_as_relaxed_extended_json(holder.get(), nullptr);
    QString json = QString::fromUtf8(text);
    bson_free(text);
    // { "v" : VALUE }
    const qsizetype colon = json.indexOf(QLatin1Char(':'));
    return json.mid(colon + 2, json.size() - colon - 4);
}

} // namespace oe
