#include "split/internal/OverflowMetadata.h"

#include "bson/internal/BsonDocument.h"

namespace oe {

namespace {

void appendUtf8(bson_t *doc, const char *key, const QString &value)
{
    const QByteArray utf8 = value.toUtf8();
    bson_append_utf8(doc, key, -1, utf8.constData(), int(utf8.size()));
}

void appendIndex(bson_t *indexes, const char *position, const QStringList &fields,
                 const QString &name, bool unique)
{
    bson_t index, key;
    bson_append_document_begin(indexes, position, -1, &index);
    BSON_APPEND_INT32(&index, "v", 2);
    bson_append_document_begin(&index, "key", -1, &key);
    for (const QString &f : fields) {
        const QByteArray utf8 = f.toUtf8();
        bson_append_int32(&key, utf8.constData(), int(utf8.size()), 1);
    }
    bson_append_document_end(&index, &key);
    appendUtf8(&index, "name", name);
    if (unique)
        BSON_APPEND_BOOL(&index, "unique", true);
    bson_append_document_end(indexes, &index);
}

} // namespace

QString OverflowMetadata::fileName(const SplitConfig &config)
{
    return config.overflowCollection + QStringLiteral(".metadata.json");
}

QByteArray OverflowMetadata::json(const SplitConfig &config)
{
    BsonDocument doc;
    bson_t options, indexes;
    bson_append_document_begin(doc.get(), "options", -1, &options);
    bson_append_document_end(doc.get(), &options);
    bson_append_array_begin(doc.get(), "indexes", -1, &indexes);
    appendIndex(&indexes, "0", {QStringLiteral("_id")}, QStringLiteral("_id_"), false);
    // Named as the live split names it (CollectionOps::createUniqueIndex).
    appendIndex(&indexes, "1", {config.linkField, config.pageField},
                QStringLiteral("%1_1_%2_1").arg(config.linkField, config.pageField), true);
    bson_append_array_end(doc.get(), &indexes);
    appendUtf8(doc.get(), "collectionName", config.overflowCollection);
    appendUtf8(doc.get(), "type", QStringLiteral("collection"));
    std::size_t length = 0;
    char *text = bson_as_canonical_extended_json(doc.get(), &length);
    const QByteArray out(text, qsizetype(length));
    bson_free(text);
    return out + '\n';
}

} // namespace oe
