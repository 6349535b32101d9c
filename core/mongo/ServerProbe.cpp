#include "mongo/ServerProbe.h"
#include "mongo/internal/DriverHandles.h"
#include "mongo/internal/MongoDriver.h"

#include "bson/internal/BsonDocument.h"
#include "mongo/MongoConnection.h"

#include <mongoc/mongoc.h>

#include <QElapsedTimer>

#include <algorithm>

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
    const CollectionHandle coll(
        mongoc_client_get_collection(client, database.toUtf8().constData(), kProbeCollection));
    const CursorHandle cursor(
        mongoc_collection_aggregate(coll.get(), MONGOC_QUERY_NONE, pipeline, nullptr, nullptr));
    const bson_t *doc = nullptr;
    while (mongoc_cursor_next(cursor.get(), &doc)) {
    }
    bson_error_t e;
    const bool ok = !mongoc_cursor_error(cursor.get(), &e);
    return ok;
}

// Runs {name: 1} on admin; the reply in `reply`.
bool adminCommand(mongoc_client_t *client, const char *name, BsonDocument *reply, bson_error_t *e)
{
    const BsonDocument cmd = BsonDocument::adopt(BCON_NEW(name, BCON_INT32(1)));
    return mongoc_client_command_simple(client, "admin", cmd.get(), nullptr, reply->reply(), e);
}

// The reply to the handshake the driver made with the server it selects for reading (its hello
// or legacy isMaster), so the probe need not ask again; empty when there is none.
// False with `e` set when no server can be selected (the driver's account of why).
bool handshakeReply(mongoc_client_t *client, BsonDocument *out, bson_error_t *e)
{
    mongoc_server_description_t *sd =
        mongoc_client_select_server(client, false, mongoc_client_get_read_prefs(client), e);
    if (!sd)
        return false;
    if (const bson_t *hello = mongoc_server_description_hello_response(sd))
        bson_concat(out->get(), hello);
    mongoc_server_description_destroy(sd);
    return true;
}

// hello (or, before MongoDB 4.4.2, the legacy isMaster): wire version, topology, sessions.
bool readHello(MongoConnection &connection, ServerInfo *info, bool *sessions, SourceError *error)
{
    BsonDocument reply;
    bson_error_t e;
    bool ok = handshakeReply(MongoDriver::client(connection), &reply, &e);
    if (ok && bson_empty(reply.get()))
        ok = adminCommand(MongoDriver::client(connection), "hello", &reply, &e);
    if (!ok && (e.domain == MONGOC_ERROR_SERVER || e.domain == MONGOC_ERROR_QUERY))
        ok = adminCommand(MongoDriver::client(connection), "isMaster", &reply, &e);
    if (!ok) {
        *error = MongoDriver::errorFrom(connection, e, QStringLiteral("connecting (hello)"));
        return false;
    }
    bson_iter_t it;
    if (bson_iter_init_find(&it, reply.get(), "maxWireVersion") && BSON_ITER_HOLDS_INT(&it))
        info->maxWireVersion = int(bson_iter_as_int64(&it));
    info->setName = utf8Field(reply.get(), "setName");
    *sessions = bson_iter_init_find(&it, reply.get(), "logicalSessionTimeoutMinutes");
    if (utf8Field(reply.get(), "msg") == QLatin1String("isdbgrid"))
        info->topology = ServerInfo::Topology::Sharded;
    else if (!info->setName.isEmpty())
        info->topology = ServerInfo::Topology::ReplicaSet;
    return true;
}

// buildInfo: the version, and FerretDB's mark with its own version.
bool readBuildInfo(MongoConnection &connection, ServerInfo *info, SourceError *error)
{
    BsonDocument reply;
    bson_error_t e;
    if (!adminCommand(MongoDriver::client(connection), "buildInfo", &reply, &e)) {
        *error = MongoDriver::errorFrom(connection, e,
                                        QStringLiteral("reading the server version (buildInfo)"));
        return false;
    }
    info->version = utf8Field(reply.get(), "version");
    bson_iter_t it;
    if (bson_iter_init_find(&it, reply.get(), "ferretdb")) {
        info->isFerretDb = true;
        bson_iter_t sub;
        if (BSON_ITER_HOLDS_DOCUMENT(&it) && bson_iter_recurse(&it, &sub) &&
            bson_iter_find(&sub, "version") && BSON_ITER_HOLDS_UTF8(&sub))
            info->ferretDbVersion = QString::fromUtf8(bson_iter_utf8(&sub, nullptr));
    }
    if (bson_iter_init_find(&it, reply.get(), "ferretdbVersion") && BSON_ITER_HOLDS_UTF8(&it)) {
        info->isFerretDb = true;
        info->ferretDbVersion = QString::fromUtf8(bson_iter_utf8(&it, nullptr));
    }
    return true;
}

// A mongos lists its cluster's shards (listShards needs the clusterMonitor role or better).
void readShards(mongoc_client_t *client, ServerInfo *info)
{
    BsonDocument reply;
    bson_error_t e;
    if (!adminCommand(client, "listShards", &reply, &e)) {
        info->notes << QStringLiteral("the shards could not be listed (listShards: %1)")
                           .arg(QString::fromUtf8(e.message));
        return;
    }
    bson_iter_t it, shards;
    if (!bson_iter_init_find(&it, reply.get(), "shards") || !BSON_ITER_HOLDS_ARRAY(&it) ||
        !bson_iter_recurse(&it, &shards))
        return;
    while (bson_iter_next(&shards)) {
        if (!BSON_ITER_HOLDS_DOCUMENT(&shards))
            continue;
        auto text = [&](const char *key) {
            bson_iter_t f;
            return bson_iter_recurse(&shards, &f) && bson_iter_find(&f, key) &&
                           BSON_ITER_HOLDS_UTF8(&f)
                       ? QString::fromUtf8(bson_iter_utf8(&f, nullptr))
                       : QString();
        };
        const QString id = text("_id"), host = text("host");
        info->shards << QString(id + QLatin1Char(' ') + host).trimmed();
    }
}

// The link's latency: the fastest of three pings (the first may pay for a new connection).
double fastestPing(mongoc_client_t *client)
{
    double best = -1;
    for (int i = 0; i < 3; ++i) {
        BsonDocument reply;
        bson_error_t e;
        QElapsedTimer clock;
        clock.start();
        if (!adminCommand(client, "ping", &reply, &e))
            return best;
        const double ms = double(clock.nsecsElapsed()) / 1e6;
        best = best < 0 ? ms : std::min(best, ms);
    }
    return best;
}

// $sample, $bsonSize and $unsetField/$setField: one aggregate that uses all three, which a
// MongoDB 5.0+ accepts in one round trip; where it is refused, each alone.
void probeOperators(mongoc_client_t *client, const QString &database, ServerInfo *info)
{
    const BsonDocument sample = BsonDocument::adopt(
        BCON_NEW("pipeline", "[", "{", "$sample", "{", "size", BCON_INT32(1), "}", "}", "]"));
    const BsonDocument bsonSize =
        BsonDocument::adopt(BCON_NEW("pipeline", "[", "{", "$project", "{", "s", "{", "$bsonSize",
                                     BCON_UTF8("$$ROOT"), "}", "}", "}", "]"));
    const BsonDocument unsetField = BsonDocument::adopt(BCON_NEW(
        "pipeline", "[", "{", "$project", "{", "u", "{", "$setField", "{", "field", BCON_UTF8("a"),
        "input", BCON_UTF8("$$ROOT"), "value", "{", "$unsetField", "{", "field", BCON_UTF8("b"),
        "input", BCON_UTF8("$a"), "}", "}", "}", "}", "}", "}", "]"));
    const BsonDocument all = BsonDocument::adopt(BCON_NEW(
        "pipeline", "[", "{", "$sample", "{", "size", BCON_INT32(1), "}", "}", "{", "$project", "{",
        "s", "{", "$bsonSize", "{", "$setField", "{", "field", BCON_UTF8("a"), "input",
        BCON_UTF8("$$ROOT"), "value", "{", "$unsetField", "{", "field", BCON_UTF8("b"), "input",
        BCON_UTF8("$a"), "}", "}", "}", "}", "}", "}", "}", "]"));
    if (pipelineWorks(client, database, all.get())) {
        info->supportsSample = info->supportsBsonSize = info->supportsUnsetField = true;
        return;
    }
    info->supportsSample = pipelineWorks(client, database, sample.get());
    info->supportsBsonSize = pipelineWorks(client, database, bsonSize.get());
    info->supportsUnsetField = pipelineWorks(client, database, unsetField.get());
}

void addNotes(ServerInfo *info)
{
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
}

} // namespace

bool ServerProbe::probe(MongoConnection &connection, const QString &database, ServerInfo *info,
                        SourceError *error, Latency latency)
{
    info->hosts = connection.hosts();
    bool sessions = false;
    if (!readHello(connection, info, &sessions, error) || !readBuildInfo(connection, info, error))
        return false;
    probeOperators(MongoDriver::client(connection), database, info);
    const bool replicated =
        (info->topology == ServerInfo::Topology::ReplicaSet && info->maxWireVersion >= 7) ||
        (info->topology == ServerInfo::Topology::Sharded && info->maxWireVersion >= 8);
    info->supportsTransactions = replicated && sessions && !info->isFerretDb;
    if (info->topology == ServerInfo::Topology::Sharded)
        readShards(MongoDriver::client(connection), info);
    if (latency == Latency::Measure)
        info->roundTripMs = fastestPing(MongoDriver::client(connection));
    addNotes(info);
    return true;
}

bool ServerProbe::probe(const ConnectionSettings &settings, const QString &database,
                        ServerInfo *info, SourceError *error)
{
    auto connection = MongoConnection::open(settings, error);
    return connection && probe(*connection, database, info, error);
}

double ServerProbe::roundTripMs(MongoConnection &connection)
{
    // Selected as the scan selects (the URI's read preference). A client that cannot select a
    // server is not lent to the next step (errorFrom forgets it): that one connects afresh and
    // says why with the driver's own account.
    BsonDocument hello;
    bson_error_t e;
    if (!handshakeReply(MongoDriver::client(connection), &hello, &e)) {
        (void)MongoDriver::errorFrom(connection, e, QStringLiteral("timing the link"));
        return -1;
    }
    return fastestPing(MongoDriver::client(connection));
}

} // namespace oe
