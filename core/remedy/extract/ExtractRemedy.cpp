#include "remedy/extract/ExtractRemedy.h"

#include "mongo/NamespaceNames.h"
#include "remedy/extract/ExtractSide.h"
#include "remedy/internal/RawValues.h"

namespace oe {

using namespace rawvalues;

namespace {

std::size_t prefixBytes(const char *text, std::size_t length, int chars)
{
    std::size_t at = 0;
    for (int n = 0; n < chars && at < length; ++n) {
        ++at;
        while (at < length && (std::uint8_t(text[at]) & 0xC0) == 0x80)
            ++at; // continuation bytes
    }
    return at;
}

QByteArray excerptOf(const RewriteConfig &config, const bson_iter_t *value)
{
    return rawOf([&](bson_t *out) {
        switch (bson_iter_type(value)) {
        case BSON_TYPE_UTF8: {
            std::uint32_t length = 0;
            const char *text = bson_iter_utf8(value, &length);
            bson_append_utf8(out, "v", 1, text,
                             int(prefixBytes(text, length, config.excerptChars)));
            break;
        }
        case BSON_TYPE_BINARY: {
            bson_subtype_t subtype;
            std::uint32_t length = 0;
            const std::uint8_t *data = nullptr;
            bson_iter_binary(value, &subtype, &length, &data);
            // Empty, of the same subtype (libbson writes subtype 2's inner length itself).
            static const std::uint8_t kNone = 0;
            bson_append_binary(out, "v", 1, subtype, &kNone, 0);
            break;
        }
        default: { // a sub-document: its named keys, in its own order
            bson_t kept;
            bson_iter_t field;
            bson_append_document_begin(out, "v", 1, &kept);
            bson_iter_recurse(value, &field);
            while (bson_iter_next(&field))
                if (config.excerptKeys.contains(QString::fromUtf8(bson_iter_key(&field))))
                    bson_append_iter(&kept, bson_iter_key(&field), -1, &field);
            bson_append_document_end(out, &kept);
            break;
        }
        }
    });
}

RewriteResult extract(const RewriteConfig &config, const QByteArray &raw, const bson_iter_t *value)
{
    const int type = bson_iter_type(value);
    if (type == BSON_TYPE_ARRAY)
        return cannot(QStringLiteral("an array: the outlier pattern's split moves its elements"));
    if (type != BSON_TYPE_UTF8 && type != BSON_TYPE_BINARY && type != BSON_TYPE_DOCUMENT)
        return cannot(QStringLiteral("a %1 is not extracted (a string, a binary or a "
                                     "sub-document is)")
                          .arg(typeName(type)));
    const qint64 bytes = raw.size() - 1; // the value's bytes, without its type byte
    if (bytes < config.minBytes)
        return unchanged(
            QStringLiteral("%1 bytes, under the %2 to extract").arg(bytes).arg(config.minBytes));
    QByteArray excerpt = excerptOf(config, value);
    if (excerpt == raw)
        return unchanged(QStringLiteral("no larger than its excerpt"));
    return changed(std::move(excerpt));
}

} // namespace

QString ExtractRemedy::cliHelp() const
{
    return QStringLiteral("Move the field (a big string, binary or sub-document) to a side "
                          "collection, {_id: the document's _id, <name>: the value}; the "
                          "document keeps an excerpt of the same type and a flag (the subset "
                          "pattern).");
}

QString ExtractRemedy::label() const
{
    return QStringLiteral("Extract to a side collection (the subset pattern)");
}

QString ExtractRemedy::offer(const RewriteConfig &config) const
{
    return QStringLiteral("Extract to a side collection (%1), keep an excerpt and a flag")
        .arg(config.side());
}

QString ExtractRemedy::problem(const RewriteConfig &config) const
{
    const QString side = config.side();
    if (QString p = NamespaceNames::collectionProblem(QStringLiteral("the side collection"), side);
        !p.isEmpty())
        return p;
    if (side == config.collection || RewriteConfig::isJournal(side))
        return QStringLiteral("the side collection '%1' is the collection or a journal: name "
                              "another")
            .arg(side);
    const QString flag = config.flag();
    if (QString p = plainNameProblem(QStringLiteral("flag field"), flag); !p.isEmpty())
        return p;
    if (flag == QLatin1String("_id") || flag == config.path.section(QLatin1Char('.'), 0, 0))
        return QStringLiteral("flag field '%1' collides with _id or with '%2'")
            .arg(flag, config.path);
    if (config.minBytes < 0 || config.excerptChars < 0)
        return QStringLiteral("the smallest size and the excerpt's length must be 0 or more");
    for (const QString &key : config.excerptKeys)
        if (QString p = plainNameProblem(QStringLiteral("excerpt key"), key); !p.isEmpty())
            return p;
    return {};
}

QString ExtractRemedy::describe(const RewriteConfig &config) const
{
    return QStringLiteral("%1: extracted to %2").arg(config.path, config.side());
}

QString ExtractRemedy::subject(const RewriteConfig &config) const
{
    return QStringLiteral("there (without %1)").arg(config.flag());
}

QString ExtractRemedy::consequence(const RewriteConfig &config) const
{
    return QStringLiteral("each value moves to %1 as {_id, %2}; its document keeps an excerpt "
                          "and %3: true")
        .arg(config.side(), config.sideLeaf(), config.flag());
}

QString ExtractRemedy::windowNote(const RewriteConfig &config) const
{
    return QStringLiteral("Each value moves to %1 as {_id, %2}; its document keeps the excerpt "
                          "(After) and %3: true. Already so: smaller than the size, or no larger "
                          "than the excerpt.")
        .arg(config.side(), config.sideLeaf(), config.flag());
}

RewriteResult ExtractRemedy::rewrite(const RewriteConfig &config, const QByteArray &raw) const
{
    return onValue(raw, [&](const bson_iter_t *value) { return extract(config, raw, value); });
}

QByteArray ExtractRemedy::scanFilter(const RewriteConfig &config) const
{
    // Every value (what is not a string, a binary or a sub-document is listed), but not in a
    // document with the flag: extracted already, or the name is the document's own.
    const QByteArray path = config.path.toUtf8();
    const QByteArray flag = config.flag().toUtf8();
    BsonDocument filter;
    bson_t condition;
    bson_append_document_begin(filter.get(), path.constData(), int(path.size()), &condition);
    bson_append_bool(&condition, "$exists", -1, true);
    bson_append_document_end(filter.get(), &condition);
    bson_append_document_begin(filter.get(), flag.constData(), int(flag.size()), &condition);
    bson_append_bool(&condition, "$exists", -1, false);
    bson_append_document_end(filter.get(), &condition);
    return filter.bytes();
}

std::unique_ptr<SideStore> ExtractRemedy::sideStore(MongoConnection &connection,
                                                    const QString &database,
                                                    const RewriteConfig &config) const
{
    return std::make_unique<ExtractSide>(connection, database, config);
}

QString ExtractRemedy::storeName(const RewriteConfig &config) const
{
    return QStringLiteral("the side collection %1").arg(config.side());
}

} // namespace oe
