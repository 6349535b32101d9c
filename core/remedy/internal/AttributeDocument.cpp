#include "remedy/internal/AttributeDocument.h"

#include "bson/internal/BsonDocument.h"
#include "bson/internal/BsonRaw.h"

#include <QSet>

#include <string>

namespace oe {

namespace {

bool isDocument(const QByteArray &raw)
{
    return raw.size() >= 6 && std::uint8_t(raw.at(0)) == BSON_TYPE_DOCUMENT;
}

// `visit` with each top-level element of a raw sub-document, in order.
template <typename Visit> bool eachField(const QByteArray &raw, Visit visit)
{
    const QByteArray bytes = AttributeDocument::documentOfRaw(raw);
    bson_t doc;
    bson_iter_t it;
    if (bytes.isEmpty() || !bsonraw::view(bytes, &doc) || !bson_iter_init(&it, &doc))
        return false;
    while (bson_iter_next(&it))
        visit(&it);
    return true;
}

RewriteResult result(RewriteResult::Outcome outcome, QByteArray after = {}, QString why = {})
{
    return {outcome, std::move(after), std::move(why)};
}

} // namespace

QByteArray AttributeDocument::rawOfDocument(const QByteArray &bytes)
{
    return QByteArray(1, char(BSON_TYPE_DOCUMENT)) + bytes;
}

QByteArray AttributeDocument::documentOfRaw(const QByteArray &raw)
{
    return isDocument(raw) ? raw.mid(1) : QByteArray();
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
    const bool read = eachField(document, [&](const bson_iter_t *field) {
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
    if (!isDocument(document))
        return document;
    const QSet<QString> chosen(config.fields.begin(), config.fields.end());
    BsonDocument out;
    eachField(document, [&](const bson_iter_t *field) {
        const QString name = QString::fromUtf8(bson_iter_key(field));
        if (chosen.contains(name) || name == config.path)
            bson_append_iter(out.get(), bson_iter_key(field), int(bson_iter_key_len(field)), field);
    });
    return rawOfDocument(out.bytes());
}

QByteArray AttributeDocument::restored(const RewriteConfig &config, const QByteArray &original,
                                       const QByteArray &current)
{
    if (!isDocument(current) || !isDocument(original))
        return {};
    // Names as bytes: a key that is not UTF-8 is kept as it is.
    QSet<QByteArray> chosen;
    for (const QString &field : config.fields)
        chosen.insert(field.toUtf8());
    const QByteArray arrayName = config.path.toUtf8();
    // The current document's fields by name (their raw values), and its order.
    QHash<QByteArray, QByteArray> now;
    QList<QByteArray> nowOrder;
    eachField(current, [&](const bson_iter_t *field) {
        const QByteArray name(bson_iter_key(field), qsizetype(bson_iter_key_len(field)));
        now.insert(name, bsonraw::valueOf(field));
        nowOrder << name;
    });
    BsonDocument out;
    QSet<QByteArray> written;
    eachField(original, [&](const bson_iter_t *field) {
        const QByteArray name(bson_iter_key(field), qsizetype(bson_iter_key_len(field)));
        written.insert(name);
        if (chosen.contains(name))
            bson_append_iter(out.get(), name.constData(), int(name.size()), field);
        else if (const auto it = now.constFind(name); it != now.constEnd())
            bsonraw::append(out.get(), name.constData(), int(name.size()), *it);
    });
    for (const QByteArray &name : nowOrder)
        if (!written.contains(name) && name != arrayName)
            bsonraw::append(out.get(), name.constData(), int(name.size()), now.value(name));
    return out.bytes();
}

} // namespace oe
