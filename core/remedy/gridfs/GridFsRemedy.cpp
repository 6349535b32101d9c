#include "remedy/gridfs/GridFsRemedy.h"

#include "mongo/NamespaceNames.h"
#include "remedy/gridfs/GridFsSide.h"
#include "remedy/internal/RawValues.h"

namespace oe {

using namespace rawvalues;

namespace {

// A binary (a string, when asked) of at least minBytes goes to a GridFS file: the document
// keeps the file's _id, a new ObjectId.
RewriteResult toGridFs(const RewriteConfig &config, const QByteArray &raw, const bson_iter_t *value)
{
    const int type = bson_iter_type(value);
    if (type != BSON_TYPE_BINARY && !(type == BSON_TYPE_UTF8 && config.gridfsStrings))
        return cannot(QStringLiteral("a %1 is not stored in GridFS (a binary is; a string, "
                                     "when strings are asked for)")
                          .arg(typeName(type)));
    const qint64 bytes = raw.size() - 1;
    if (bytes < config.minBytes)
        return unchanged(
            QStringLiteral("%1 bytes, under the %2 to store").arg(bytes).arg(config.minBytes));
    return changed(rawOf([](bson_t *out) {
        bson_oid_t oid;
        bson_oid_init(&oid, nullptr);
        bson_append_oid(out, "v", 1, &oid);
    }));
}

} // namespace

QString GridFsRemedy::cliHelp() const
{
    return QStringLiteral("Move the field's binaries of at least --min-bytes into files of a "
                          "GridFS bucket; the document keeps the file's _id (an ObjectId).");
}

QString GridFsRemedy::offer(const RewriteConfig &config) const
{
    return QStringLiteral("Store in GridFS (bucket %1, strings too), keep the file's id")
        .arg(config.bucket);
}

QString GridFsRemedy::problem(const RewriteConfig &config) const
{
    const QString &bucket = config.bucket;
    if (QString p = NamespaceNames::collectionProblem(QStringLiteral("the GridFS bucket"),
                                                      bucket + QStringLiteral(".chunks"));
        bucket.isEmpty() || !p.isEmpty())
        return QStringLiteral("GridFS bucket '%1': not a name a bucket can have").arg(bucket);
    for (const QString &part : {QStringLiteral(".files"), QStringLiteral(".chunks")})
        if (config.collection == bucket + part)
            return QStringLiteral("GridFS bucket '%1': its %2 collection is the collection "
                                  "rewritten; name another bucket")
                .arg(bucket, bucket + part);
    if (config.minBytes < 0)
        return QStringLiteral("the smallest size must be 0 or more");
    return {};
}

QString GridFsRemedy::describe(const RewriteConfig &config) const
{
    return QStringLiteral("%1: to GridFS bucket %2").arg(config.path, config.bucket);
}

QString GridFsRemedy::subject(const RewriteConfig &config) const
{
    return config.gridfsStrings ? QStringLiteral("a binary or a string")
                                : QStringLiteral("a binary");
}

QString GridFsRemedy::consequence(const RewriteConfig &config) const
{
    return QStringLiteral("each value moves to a file of the GridFS bucket %1 (%1.files, "
                          "%1.chunks); its document keeps the file's _id")
        .arg(config.bucket);
}

QString GridFsRemedy::windowNote(const RewriteConfig &config) const
{
    return QStringLiteral("Each value moves to a file of the GridFS bucket %1 (%1.files, "
                          "%1.chunks); its document keeps the file's _id.")
        .arg(config.bucket);
}

RewriteResult GridFsRemedy::rewrite(const RewriteConfig &config, const QByteArray &raw) const
{
    return onValue(raw, [&](const bson_iter_t *value) { return toGridFs(config, raw, value); });
}

bool GridFsRemedy::sameAfter(const QByteArray &, const QByteArray &journaled) const
{
    return !journaled.isEmpty() && journaled.at(0) == char(BSON_TYPE_OID);
}

QByteArray GridFsRemedy::scanFilter(const RewriteConfig &config) const
{
    // The binaries (and strings) only: a file id left by a run is not read again.
    return filterOn(config.path, [&](bson_t *condition) {
        bson_t types;
        bson_append_array_begin(condition, "$type", -1, &types);
        bson_append_utf8(&types, "0", -1, "binData", -1);
        if (config.gridfsStrings)
            bson_append_utf8(&types, "1", -1, "string", -1);
        bson_append_array_end(condition, &types);
        appendNotArray(condition);
    });
}

std::unique_ptr<SideStore> GridFsRemedy::sideStore(MongoConnection &connection,
                                                   const QString &database,
                                                   const RewriteConfig &config) const
{
    return std::make_unique<GridFsSide>(connection, database, config);
}

QString GridFsRemedy::storeName(const RewriteConfig &config) const
{
    return QStringLiteral("the GridFS bucket %1").arg(config.bucket);
}

} // namespace oe
