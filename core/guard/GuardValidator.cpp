#include "guard/GuardValidator.h"

#include "bson/internal/BsonDocument.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace oe {

namespace {

bool view(const QByteArray &bytes, bson_t *doc)
{
    return bson_init_static(doc, reinterpret_cast<const std::uint8_t *>(bytes.constData()),
                            std::size_t(bytes.size()));
}

// Sets `leaf` at `segments` inside a `$jsonSchema` object: each step down is `properties`.
void place(QJsonObject &schema, const QStringList &segments, const QJsonObject &leaf)
{
    QJsonObject properties = schema.value(QStringLiteral("properties")).toObject();
    const QString head = segments.first();
    QJsonObject child = properties.value(head).toObject();
    if (segments.size() == 1) {
        for (auto it = leaf.begin(); it != leaf.end(); ++it)
            child.insert(it.key(), it.value());
    } else {
        place(child, segments.mid(1), leaf);
    }
    properties.insert(head, child);
    schema.insert(QStringLiteral("properties"), properties);
}

void appendString(bson_t *doc, const char *key, const QString &value)
{
    const QByteArray utf8 = value.toUtf8();
    bson_append_utf8(doc, key, -1, utf8.constData(), int(utf8.size()));
}

} // namespace

QString guardActionName(GuardAction action)
{
    return action == GuardAction::Error ? QStringLiteral("error") : QStringLiteral("warn");
}

QByteArray GuardValidator::schema(const SplitConfig &layout)
{
    QJsonObject schema{{QStringLiteral("bsonType"), QStringLiteral("object")},
                       {QStringLiteral("title"), QString::fromLatin1(kTitle)},
                       {QStringLiteral("description"),
                        QStringLiteral("at most %1 elements in %2; the rest in %3")
                            .arg(layout.keep)
                            .arg(layout.field, layout.withDefaults().overflowCollection)}};
    place(schema, layout.pathSegments(),
          QJsonObject{{QStringLiteral("maxItems"), qint64(layout.keep)}});
    if (!layout.flagField.isEmpty())
        place(schema, layout.flagField.split(QLatin1Char('.')),
              QJsonObject{{QStringLiteral("bsonType"), QStringLiteral("bool")}});
    const QByteArray json =
        QJsonDocument(QJsonObject{{QStringLiteral("$jsonSchema"), schema}}).toJson();
    const auto doc = BsonDocument::fromJson(json);
    return doc ? doc->bytes() : QByteArray();
}

QByteArray GuardValidator::merged(const QByteArray &previousValidator, const QByteArray &guard)
{
    bson_t previous, own;
    if (previousValidator.isEmpty() || !view(previousValidator, &previous) ||
        bson_count_keys(&previous) == 0)
        return guard;
    if (!view(guard, &own))
        return {};
    BsonDocument out;
    bson_t list;
    bson_append_array_begin(out.get(), "$and", -1, &list);
    bson_append_document(&list, "0", -1, &previous);
    bson_append_document(&list, "1", -1, &own);
    bson_append_array_end(out.get(), &list);
    return out.bytes();
}

QByteArray GuardValidator::collMod(const QString &collection, const QByteArray &validator,
                                   GuardAction action)
{
    bson_t v;
    if (!view(validator, &v))
        return {};
    BsonDocument out;
    appendString(out.get(), "collMod", collection);
    bson_append_document(out.get(), "validator", -1, &v);
    appendString(out.get(), "validationLevel", QStringLiteral("moderate"));
    appendString(out.get(), "validationAction", guardActionName(action));
    return out.bytes();
}

QByteArray GuardValidator::restore(const QString &collection, const QByteArray &previousOptions)
{
    bson_t options;
    if (!view(previousOptions, &options))
        return {};
    BsonDocument out;
    appendString(out.get(), "collMod", collection);
    bson_iter_t it;
    if (bson_iter_init_find(&it, &options, "validator") && BSON_ITER_HOLDS_DOCUMENT(&it)) {
        bson_append_iter(out.get(), "validator", -1, &it);
    } else {
        bson_t empty = BSON_INITIALIZER;
        bson_append_document(out.get(), "validator", -1, &empty);
    }
    const auto text = [&](const char *key, const char *fallback) {
        bson_iter_t found;
        appendString(out.get(), key,
                     bson_iter_init_find(&found, &options, key) && BSON_ITER_HOLDS_UTF8(&found)
                         ? QString::fromUtf8(bson_iter_utf8(&found, nullptr))
                         : QString::fromLatin1(fallback));
    };
    text("validationLevel", "strict");
    text("validationAction", "error");
    return out.bytes();
}

QByteArray GuardValidator::violations(const QByteArray &guard)
{
    bson_t own;
    if (!view(guard, &own))
        return {};
    BsonDocument out;
    bson_t list;
    bson_append_array_begin(out.get(), "$nor", -1, &list);
    bson_append_document(&list, "0", -1, &own);
    bson_append_array_end(out.get(), &list);
    return out.bytes();
}

QString GuardValidator::toJson(const QByteArray &bytes)
{
    bson_t doc;
    if (!view(bytes, &doc))
        return {};
    char *text = bson_as_relaxed_extended_json(&doc, nullptr);
    const QString out = QString::fromUtf8(text);
    bson_free(text);
    return out;
}

} // namespace oe
