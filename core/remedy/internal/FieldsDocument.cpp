#include "remedy/internal/FieldsDocument.h"

#include "bson/internal/BsonDocument.h"

#include <QHash>
#include <QSet>

namespace oe {

namespace {

QSet<QByteArray> namesOf(const QStringList &names)
{
    // Names as bytes: a key that is not UTF-8 is kept as it is.
    QSet<QByteArray> out;
    for (const QString &name : names)
        out.insert(name.toUtf8());
    return out;
}

} // namespace

bool FieldsDocument::isDocument(const QByteArray &raw)
{
    return raw.size() >= 6 && std::uint8_t(raw.at(0)) == BSON_TYPE_DOCUMENT;
}

QByteArray FieldsDocument::rawOfDocument(const QByteArray &bytes)
{
    return QByteArray(1, char(BSON_TYPE_DOCUMENT)) + bytes;
}

QByteArray FieldsDocument::documentOfRaw(const QByteArray &raw)
{
    return isDocument(raw) ? raw.mid(1) : QByteArray();
}

QByteArray FieldsDocument::touched(const QStringList &names, const QByteArray &document)
{
    if (!isDocument(document))
        return document;
    const QSet<QByteArray> wanted = namesOf(names);
    BsonDocument out;
    eachField(document, [&](const bson_iter_t *field) {
        if (wanted.contains(QByteArray(bson_iter_key(field), qsizetype(bson_iter_key_len(field)))))
            bson_append_iter(out.get(), bson_iter_key(field), int(bson_iter_key_len(field)), field);
    });
    return rawOfDocument(out.bytes());
}

QByteArray FieldsDocument::restored(const QStringList &moved, const QStringList &made,
                                    const QByteArray &original, const QByteArray &current)
{
    if (!isDocument(current) || !isDocument(original))
        return {};
    const QSet<QByteArray> back = namesOf(moved);
    const QSet<QByteArray> dropped = namesOf(made);
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
        if (back.contains(name))
            bson_append_iter(out.get(), name.constData(), int(name.size()), field);
        else if (const auto it = now.constFind(name); it != now.constEnd())
            bsonraw::append(out.get(), name.constData(), int(name.size()), *it);
    });
    for (const QByteArray &name : nowOrder)
        if (!written.contains(name) && !dropped.contains(name))
            bsonraw::append(out.get(), name.constData(), int(name.size()), now.value(name));
    return out.bytes();
}

} // namespace oe
