#include "bson/DocumentOutline.h"

#include "bson/BsonTypes.h"
#include "bson/JsonIndenter.h"
#include "bson/internal/BsonDocument.h"
#include "bson/internal/BsonIter.h"

#include <QLocale>

#include <bson/bson.h>

#include <cstring>

namespace oe {

namespace {

bool openAt(const QByteArray &document, qint64 offset, bson_t *out)
{
    if (offset < 0 || offset + 5 > document.size())
        return false;
    std::int32_t length = 0;
    std::memcpy(&length, document.constData() + offset, 4);
    length = std::int32_t(BSON_UINT32_FROM_LE(std::uint32_t(length)));
    if (length < 5 || offset + length > document.size())
        return false;
    return bson_init_static(out,
                            reinterpret_cast<const std::uint8_t *>(document.constData()) + offset,
                            std::size_t(length));
}

// The first `room` UTF-16 units of `text`, one fewer if that would split a surrogate pair.
QString leftWhole(const QString &text, qsizetype room)
{
    if (text.size() <= room)
        return text;
    if (room > 0 && text.at(room - 1).isHighSurrogate())
        --room;
    return text.left(room);
}

QString shortened(QString text)
{
    text.replace(QLatin1Char('\n'), QLatin1Char(' '));
    if (text.size() > DocumentOutline::kPreviewChars)
        text = leftWhole(text, DocumentOutline::kPreviewChars - 1) + QChar(0x2026);
    return text;
}

// libbson's JSON writer silently leaves out an embedded document it cannot open (a bad
// terminator, which its iterator does not check) and so writes invalid JSON. Check every
// level the way the writer will open it. The depth cap bounds this recursion (MongoDB
// itself nests at most 100 levels).
bool wellFormed(const std::uint8_t *data, std::size_t length, int depth)
{
    bson_t doc;
    bson_iter_t it;
    if (depth > 200 || !bson_init_static(&doc, data, length) || !bson_iter_init(&it, &doc))
        return false;
    while (bson_iter_next(&it)) {
        std::uint32_t childLength = 0;
        const std::uint8_t *child = nullptr;
        if (BSON_ITER_HOLDS_DOCUMENT(&it))
            bson_iter_document(&it, &childLength, &child);
        else if (BSON_ITER_HOLDS_ARRAY(&it))
            bson_iter_array(&it, &childLength, &child);
        else
            continue;
        if (!child || !wellFormed(child, childLength, depth + 1))
            return false;
    }
    return bsoniter::errorOffset(&it) == 0;
}

// One value in a line: strings quoted, numbers as numbers, everything else as libbson's
// relaxed extended JSON of the value.
QString previewOf(const bson_iter_t *it)
{
    switch (bson_iter_type(it)) {
    case BSON_TYPE_UTF8: {
        std::uint32_t len = 0;
        const char *s = bson_iter_utf8(it, &len);
        // Decode only a prefix (the value may be megabytes): four bytes per character at
        // most, so enough to fill the preview; cut at a character boundary.
        std::uint32_t keep = std::min<std::uint32_t>(len, 4 * DocumentOutline::kPreviewChars);
        while (keep > 0 && keep < len && (std::uint8_t(s[keep]) & 0xC0) == 0x80)
            --keep;
        QString text = QString::fromUtf8(s, qsizetype(keep));
        text.replace(QLatin1Char('\n'), QLatin1Char(' '));
        const qsizetype room = DocumentOutline::kPreviewChars - 2; // quote + quote or ellipsis
        if (keep == len && text.size() <= room)
            return QLatin1Char('"') + text + QLatin1Char('"');
        return QLatin1Char('"') + leftWhole(text, room) + QChar(0x2026);
    }
    case BSON_TYPE_INT32:
        return QString::number(bson_iter_int32(it));
    case BSON_TYPE_INT64:
        return QString::number(bson_iter_int64(it));
    case BSON_TYPE_DOUBLE:
        return QString::number(bson_iter_double(it), 'g', 17);
    case BSON_TYPE_BOOL:
        return bson_iter_bool(it) ? QStringLiteral("true") : QStringLiteral("false");
    case BSON_TYPE_NULL:
        return QStringLiteral("null");
    case BSON_TYPE_BINARY: {
        bson_subtype_t subtype;
        std::uint32_t len = 0;
        const std::uint8_t *data = nullptr;
        bson_iter_binary(it, &subtype, &len, &data);
        return QStringLiteral("Binary(subtype %1, %2 bytes)").arg(int(subtype)).arg(len);
    }
    default: {
        BsonDocument single;
        bson_append_iter(single.get(), "v", 1, it);
        std::size_t len = 0;
        char *json = bson_as_relaxed_extended_json(single.get(), &len);
        if (!json)
            return QStringLiteral("?");
        // libbson pads with blanks ({ "$oid" : "…" }): compact, as the outlier table shows ids.
        const std::string compact = JsonIndenter::compact(json, len);
        QString text = QString::fromUtf8(compact.data(), qsizetype(compact.size()));
        bson_free(json);
        // {"v" : X } -> X
        const qsizetype colon = text.indexOf(QLatin1Char(':'));
        if (colon > 0 && text.endsWith(QLatin1Char('}')))
            text = text.mid(colon + 1, text.size() - colon - 2).trimmed();
        return shortened(text);
    }
    }
}

} // namespace

qint64 DocumentOutline::count(const QByteArray &document, qint64 offset)
{
    bson_t doc;
    if (!openAt(document, offset, &doc))
        return -1;
    return qint64(bson_count_keys(&doc));
}

std::vector<OutlineEntry> DocumentOutline::children(const QByteArray &document, qint64 offset,
                                                    qint64 first, qint64 limit, qint64 *total,
                                                    QString *error)
{
    std::vector<OutlineEntry> out;
    bson_t doc;
    bson_iter_t it;
    if (!openAt(document, offset, &doc) || !bson_iter_init(&it, &doc)) {
        if (error)
            *error = QStringLiteral("not a valid BSON document at byte offset %1").arg(offset);
        if (total)
            *total = 0;
        return out;
    }
    qint64 index = 0;
    const auto base = reinterpret_cast<const std::uint8_t *>(document.constData());
    while (bson_iter_next(&it)) {
        if (index >= first && index < first + limit) {
            OutlineEntry e;
            e.key = QString::fromUtf8(bson_iter_key(&it), qsizetype(bson_iter_key_len(&it)));
            const int type = int(bson_iter_type(&it));
            const QStringList names = BsonTypes::names(BsonTypes::bit(type));
            e.type = names.isEmpty() ? QStringLiteral("unknown") : names.first();
            if (type == BSON_TYPE_DOCUMENT || type == BSON_TYPE_ARRAY) {
                std::uint32_t len = 0;
                const std::uint8_t *data = nullptr;
                if (type == BSON_TYPE_DOCUMENT)
                    bson_iter_document(&it, &len, &data);
                else
                    bson_iter_array(&it, &len, &data);
                e.childOffset = qint64(data - base);
                e.valueBytes = len;
                e.childCount = count(document, e.childOffset);
                const QLocale c = QLocale::c();
                e.preview = type == BSON_TYPE_ARRAY
                                ? QStringLiteral("[ %1 elements ]").arg(c.toString(e.childCount))
                                : QStringLiteral("{ %1 fields }").arg(c.toString(e.childCount));
            } else {
                e.valueBytes = qint64(bsoniter::valueLength(&it));
                e.preview = previewOf(&it);
            }
            out.push_back(std::move(e));
        }
        ++index;
    }
    if (bsoniter::errorOffset(&it) != 0 && error)
        *error = QStringLiteral("invalid BSON inside the document at byte offset %1")
                     .arg(offset + qint64(bsoniter::errorOffset(&it)));
    if (total)
        *total = index;
    return out;
}

QString DocumentOutline::toIndentedJson(const QByteArray &document, QString *error)
{
    bson_t doc;
    if (!openAt(document, 0, &doc) || !wellFormed(bson_get_data(&doc), std::size_t(doc.len), 0)) {
        if (error)
            *error = QStringLiteral("not a valid BSON document");
        return {};
    }
    std::size_t len = 0;
    char *json = bson_as_relaxed_extended_json(&doc, &len);
    if (!json) {
        if (error)
            *error = QStringLiteral("the document cannot be rendered as extended JSON");
        return {};
    }
    const std::string text = JsonIndenter::indent(json, len);
    bson_free(json);
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

} // namespace oe
