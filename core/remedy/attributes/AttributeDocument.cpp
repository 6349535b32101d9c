#include "remedy/attributes/AttributeDocument.h"

#include "bson/internal/BsonDocument.h"
#include "bson/internal/BsonRaw.h"
#include "remedy/internal/FieldsDocument.h"

#include <QSet>

#include <string>

namespace oe {

namespace {

RewriteResult result(RewriteResult::Outcome outcome, QByteArray after = {}, QString why = {})
{
    return {outcome, std::move(after), std::move(why)};
}

} // namespace

QByteArray AttributeDocument::rawOfDocument(const QByteArray &bytes)
{
    return FieldsDocument::rawOfDocument(bytes);
}

QByteArray AttributeDocument::documentOfRaw(const QByteArray &raw)
{
    return FieldsDocument::documentOfRaw(raw);
}

RewriteResult AttributeDocument::rewrite(const RewriteConfig &config, const QByteArray &document)
{
    const QByteArray arrayName = config.path.toUtf8();
    const QSet<QString> chosen(config.fields.begin(), config.fields.end());
    const QByteArray key = config.keyName.toUtf8();
    const QByteArray val = config.valueName.toUtf8();
    BsonDocument out;
    bson_t list;
    bson_append_array_begin(out.get(), arrayName.constData(), int(arrayName.size()), &list);
    std::uint32_t n = 0;
    bool holdsArray = false;
    const bool read = FieldsDocument::eachField(document, [&](const bson_iter_t *field) {
        const QString name = QString::fromUtf8(bson_iter_key(field));
        holdsArray = holdsArray || name == config.path;
        if (!chosen.contains(name))
            return;
        const std::string index = std::to_string(n++);
        bson_t pair;
        bson_append_document_begin(&list, index.c_str(), -1, &pair);
        bson_append_utf8(&pair, key.constData(), int(key.size()), bson_iter_key(field),
                         int(bson_iter_key_len(field)));
        bson_append_iter(&pair, val.constData(), int(val.size()), field);
        bson_append_document_end(&list, &pair);
    });
    bson_append_array_end(out.get(), &list);
    if (!read)
        return result(RewriteResult::Outcome::Cannot, {}, QStringLiteral("not a document"));
    if (holdsArray)
        return result(RewriteResult::Outcome::Cannot, {},
                      QStringLiteral("the document holds a field %1 already").arg(config.path));
    if (n == 0)
        return result(RewriteResult::Outcome::Unchanged, {},
                      QStringLiteral("none of the %1 fields").arg(config.fields.size()));
    return result(RewriteResult::Outcome::Changed, rawOfDocument(out.bytes()));
}

QByteArray AttributeDocument::touched(const RewriteConfig &config, const QByteArray &document)
{
    return FieldsDocument::touched(config.fields + QStringList{config.path}, document);
}

QByteArray AttributeDocument::restored(const RewriteConfig &config, const QByteArray &original,
                                       const QByteArray &current)
{
    return FieldsDocument::restored(config.fields, {config.path}, original, current);
}

} // namespace oe
