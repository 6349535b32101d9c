#include "ServerProbe.h"

#include <mongoc/mongoc.h>

namespace oe {

namespace {

const char kProbeCollection[] = "outlier_explorer_capability_probe";

QString utf8Field(const bson_t *doc, const char *key)
{
    bson_iter_t it;
    if (bson_iter_init_find(&it, doc, key) && BSON_ITER_HOLDS_UTF8(&it))
        return QString::fromUtf8(bson_iter_utf8(&it, nullptr));
    return {};
}

// Runs a one-stage aggregate and reports whether the server accepted it.
bool pipelineWorks(mongoc_client_t *client, const QString &database, const bson_t *pipeline)
{
    mongoc_collection_t *coll =
        mongoc_client_get_collection(client, database.toUtf8().constData(), kProbeCollection);
    mongoc_cursor_t *cursor =
        mongoc_collection_aggregate(coll, MONGOC_QUERY_NONE, pipeline, nullptr, nullptr);
    const bson_t *doc = nullptr;
    while (mongoc_cursor_next(cursor, &doc)) {
    }
    bson_error_t e;
    const bool ok = !mongoc_cursor_error(cursor, &e);
    mongoc_cursor_destroy(cursor);
    mongoc_collection_destroy(coll);
    return ok;
}

} // namespace

bool ServerProbe::probe(MongoConnection &connection, const QString &database, ServerInfo *info,
                        SourceError *error)
{
    mongoc_client_t *client = connection.client();
    info->hosts = connection.hosts();
    bson_t reply;
    bson_error_t e;

    bson_t *hello = BCON_NEW("hello", BCON_INT32(1));
    bool ok = mongoc_client_command_simple(client, "admin", hello, nullptr, &reply, &e);
    bson_destroy(hello);
    if (!ok && e.domain != MONGOC_ERROR_SERVER && e.domain != MONGOC_ERROR_QUERY) {
        bson_destroy(&reply);
        *error = connection.errorFrom(e, QStringLiteral("connecting (hello)"));
        return false;
    }
    if (!ok) {
        // Servers before MongoDB 4.4.2 know only the legacy name.
        bson_destroy(&reply);
        bson_t *isMaster = BCON_NEW("isMaster", BCON_INT32(1));
        ok = mongoc_client_command_simple(client, "admin", isMaster, nullptr, &reply, &e);
        bson_destroy(isMaster);
        if (!ok) {
            bson_destroy(&reply);
            *error = connection.errorFrom(e, QStringLiteral("connecting (hello)"));
            return false;
        }
    }
    bson_iter_t it;
    if (bson_iter_init_find(&it, &reply, "maxWireVersion") && BSON_ITER_HOLDS_INT(&it))
        info->maxWireVersion = int(bson_iter_as_int64(&it));
    info->setName = utf8Field(&reply, "setName");
    const bool sessions = bson_iter_init_find(&it, &reply, "logicalSessionTimeoutMinutes");
    if (utf8Field(&reply, "msg") == QLatin1String("isdbgrid"))
        info->topology = ServerInfo::Topology::Sharded;
    else if (!info->setName.isEmpty())
        info->topology = ServerInfo::Topology::ReplicaSet;
    bson_destroy(&reply);

    bson_t *buildInfo = BCON_NEW("buildInfo", BCON_INT32(1));
    ok = mongoc_client_command_simple(client, "admin", buildInfo, nullptr, &reply, &e);
    bson_destroy(buildInfo);
    if (!ok) {
        bson_destroy(&reply);
        *error = connection.errorFrom(e, QStringLiteral("reading the server version (buildInfo)"));
        return false;
    }
    info->version = utf8Field(&reply, "version");
    // FerretDB marks buildInfo with a "ferretdb" document holding its own version.
    if (bson_iter_init_find(&it, &reply, "ferretdb")) {
        info->isFerretDb = true;
        bson_iter_t sub;
        if (BSON_ITER_HOLDS_DOCUMENT(&it) && bson_iter_recurse(&it, &sub) &&
            bson_iter_find(&sub, "version") && BSON_ITER_HOLDS_UTF8(&sub))
            info->ferretDbVersion = QString::fromUtf8(bson_iter_utf8(&sub, nullptr));
    }
    if (bson_iter_init_find(&it, &reply, "ferretdbVersion") && BSON_ITER_HOLDS_UTF8(&it)) {
        info->isFerretDb = true;
        info->ferretDbVersion = QString::fromUtf8(bson_iter_utf8(&it, nullptr));
    }
    bson_destroy(&reply);

    bson_t *sample =
        BCON_NEW("pipeline", "[", "{", "$sample", "{", "size", BCON_INT32(1), "}", "}", "]");
    info->supportsSample = pipelineWorks(client, database, sample);
    bson_destroy(sample);
    bson_t *bsonSize = BCON_NEW("pipeline", "[", "{", "$project", "{", "s", "{", "$bsonSize",
                                BCON_UTF8("$$ROOT"), "}", "}", "}", "]");
    info->supportsBsonSize = pipelineWorks(client, database, bsonSize);
    bson_destroy(bsonSize);
    const bool replicated =
        (info->topology == ServerInfo::Topology::ReplicaSet && info->maxWireVersion >= 7) ||
        (info->topology == ServerInfo::Topology::Sharded && info->maxWireVersion >= 8);
    info->supportsTransactions = replicated && sessions && !info->isFerretDb;

    if (!info->supportsSample)
        info->notes << QStringLiteral(
            "$sample is not supported: samples are drawn client-side with a "
            "uniform reservoir over a scan");
    if (!info->supportsBsonSize)
        info->notes << QStringLiteral("$bsonSize is not supported: sizes are measured client-side");
    if (!info->supportsTransactions)
        info->notes << QStringLiteral(
            "no multi-document transactions: migrations rely on per-document "
            "guards, which is how they work everywhere");
    return true;
}

} // namespace oe
