#include "watch/CollectionWatch.h"

#include "bson/DocumentId.h"
#include "bson/internal/BsonDocument.h"
#include "bson/internal/BsonRaw.h"
#include "mongo/MongoConnection.h"
#include "mongo/NamespaceLookup.h"
#include "mongo/ServerInfo.h"
#include "mongo/ServerProbe.h"
#include "mongo/internal/DriverHandles.h"
#include "mongo/internal/MongoDriver.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <chrono>
#include <set>
#include <thread>

namespace oe {

namespace {

using StreamHandle = DriverHandle<mongoc_change_stream_t, mongoc_change_stream_destroy>;

// The length of the watched array under `root` ("$$ROOT" or "$fullDocument"), -1 when it is
// not an array.
QJsonObject lengthOf(const WatchOptions &o, const QString &root)
{
    const QString path =
        (root == QLatin1String("$$ROOT") ? QStringLiteral("$") : root + QLatin1Char('.')) + o.field;
    return QJsonObject{
        {QStringLiteral("$cond"), QJsonArray{QJsonObject{{QStringLiteral("$isArray"), path}},
                                             QJsonObject{{QStringLiteral("$size"), path}}, -1}}};
}

// {size, length} of the document under `root`, and the $match that keeps those over (and
// whatever `passing` lets through besides).
QJsonArray sizeAndMatch(const WatchOptions &o, const QString &root, QJsonObject project,
                        const QJsonArray &passing = {})
{
    project.insert(QStringLiteral("size"), QJsonObject{{QStringLiteral("$bsonSize"), root}});
    project.insert(QStringLiteral("length"),
                   o.field.isEmpty() ? QJsonValue(-1) : QJsonValue(lengthOf(o, root)));
    QJsonArray over = passing;
    if (o.sizeThreshold > 0)
        over.append(QJsonObject{{QStringLiteral("size"),
                                 QJsonObject{{QStringLiteral("$gt"), qint64(o.sizeThreshold)}}}});
    if (!o.field.isEmpty())
        over.append(QJsonObject{
            {QStringLiteral("length"), QJsonObject{{QStringLiteral("$gt"), qint64(o.keep)}}}});
    return QJsonArray{
        QJsonObject{{QStringLiteral("$project"), project}},
        QJsonObject{{QStringLiteral("$match"), QJsonObject{{QStringLiteral("$or"), over}}}}};
}

BsonDocument pipelineOf(const QJsonArray &stages)
{
    const QByteArray json = QJsonDocument(QJsonObject{{QStringLiteral("pipeline"), stages}})
                                .toJson(QJsonDocument::Compact);
    auto doc = BsonDocument::fromJson(json);
    return doc ? std::move(*doc) : BsonDocument();
}

QString idOf(const bson_iter_t *it)
{
    return DocumentId::toRelaxedJson(bsonraw::toDocumentId(bsonraw::valueOf(it)));
}

std::int64_t numberAt(const bson_t *doc, const char *key, std::int64_t fallback)
{
    bson_iter_t it;
    return bson_iter_init_find(&it, doc, key) && BSON_ITER_HOLDS_NUMBER(&it)
               ? bson_iter_as_int64(&it)
               : fallback;
}

void classify(const WatchOptions &o, WatchEvent *e)
{
    e->overSize = o.sizeThreshold > 0 && e->size > o.sizeThreshold;
    e->overArray = !o.field.isEmpty() && e->length > std::int64_t(o.keep);
}

// The length of the array at `path` in `doc`, -1 when it is not one.
std::int64_t arrayLength(const bson_t *doc, const QString &path)
{
    bson_iter_t it, found;
    const QByteArray dotted = path.toUtf8();
    if (!bson_iter_init(&it, doc) || !bson_iter_find_descendant(&it, dotted.constData(), &found) ||
        !BSON_ITER_HOLDS_ARRAY(&found))
        return -1;
    bson_iter_t child;
    std::int64_t n = 0;
    if (bson_iter_recurse(&found, &child))
        while (bson_iter_next(&child))
            ++n;
    return n;
}

// Drains `cursor` into `out` (what `eventOf` makes of each document, when it is over); false
// with `error` when the cursor fails.
template <typename EventOf>
bool drain(const MongoConnection &connection, const WatchOptions &o, mongoc_cursor_t *cursor,
           EventOf eventOf, std::vector<WatchEvent> *out, SourceError *error)
{
    const bson_t *doc = nullptr;
    const QDateTime now = QDateTime::currentDateTimeUtc();
    while (mongoc_cursor_next(cursor, &doc)) {
        WatchEvent e = eventOf(doc);
        e.at = now;
        e.operation = QStringLiteral("check");
        classify(o, &e);
        bson_iter_t it;
        if ((e.overSize || e.overArray) && bson_iter_init_find(&it, doc, "_id")) {
            e.id = idOf(&it);
            out->push_back(e);
        }
    }
    bson_error_t e;
    if (!mongoc_cursor_error(cursor, &e))
        return true;
    *error = MongoDriver::errorFrom(connection, e, QStringLiteral("checking %1").arg(o.collection));
    return false;
}

// The database or collection is not there: a usage error (the command line names it) with the
// names nearby.
SourceError missing(const MongoConnection &connection, const NamespaceLookup &where)
{
    SourceError e;
    e.kind = SourceError::Kind::Usage;
    e.source = connection.redactedUri();
    e.message = where.message();
    return e;
}

// The collection's documents over a threshold now: sized by the server ($bsonSize) where it
// can, else each document read and sized here (FerretDB).
bool checkOn(const MongoConnection &connection, const ServerInfo &info, const WatchOptions &o,
             std::vector<WatchEvent> *out, SourceError *error)
{
    const QByteArray db = o.database.toUtf8(), coll = o.collection.toUtf8();
    const CollectionHandle c(mongoc_client_get_collection(MongoDriver::client(connection),
                                                          db.constData(), coll.constData()));
    if (!info.supportsBsonSize) {
        const BsonDocument filter;
        const CursorHandle cursor(
            mongoc_collection_find_with_opts(c.get(), filter.get(), nullptr, nullptr));
        return drain(
            connection, o, cursor.get(),
            [&o](const bson_t *doc) {
                WatchEvent e;
                e.size = doc->len;
                e.length = o.field.isEmpty() ? -1 : arrayLength(doc, o.field);
                return e;
            },
            out, error);
    }
    const BsonDocument pipeline = pipelineOf(
        sizeAndMatch(o, QStringLiteral("$$ROOT"), QJsonObject{{QStringLiteral("_id"), 1}}));
    const CursorHandle cursor(
        mongoc_collection_aggregate(c.get(), MONGOC_QUERY_NONE, pipeline.get(), nullptr, nullptr));
    return drain(
        connection, o, cursor.get(),
        [](const bson_t *doc) {
            WatchEvent e;
            e.size = std::uint64_t(std::max<std::int64_t>(0, numberAt(doc, "size", 0)));
            e.length = numberAt(doc, "length", -1);
            return e;
        },
        out, error);
}

// A watch's own connection: a lost link is noticed in seconds, not after two minutes.
ConnectionSettings watchSettings(ConnectionSettings s)
{
    s.socketTimeoutMs = std::min(s.socketTimeoutMs, 10000);
    s.serverSelectionTimeoutMs = std::min(s.serverSelectionTimeoutMs, 5000);
    s.connectTimeoutMs = std::min(s.connectTimeoutMs, 5000);
    return s;
}

// Waits `ms`, or less when cancelled: the pause between two reconnections, or two checks.
void pause(int ms, const std::atomic<bool> *cancel)
{
    for (int waited = 0; waited < ms && !(cancel && cancel->load()); waited += 100)
        std::this_thread::sleep_for(std::chrono::milliseconds(std::min(100, ms - waited)));
}

WatchEvent eventOf(const WatchOptions &o, const bson_t *doc)
{
    WatchEvent e;
    bson_iter_t it, key;
    if (bson_iter_init(&it, doc) && bson_iter_find_descendant(&it, "documentKey._id", &key))
        e.id = idOf(&key);
    if (bson_iter_init_find(&it, doc, "operationType") && BSON_ITER_HOLDS_UTF8(&it))
        e.operation = QString::fromUtf8(bson_iter_utf8(&it, nullptr));
    std::uint32_t seconds = 0, increment = 0;
    if (bson_iter_init_find(&it, doc, "clusterTime") && BSON_ITER_HOLDS_TIMESTAMP(&it))
        bson_iter_timestamp(&it, &seconds, &increment);
    e.at =
        seconds ? QDateTime::fromSecsSinceEpoch(seconds, Qt::UTC) : QDateTime::currentDateTimeUtc();
    e.size = std::uint64_t(std::max<std::int64_t>(0, numberAt(doc, "size", 0)));
    e.length = numberAt(doc, "length", -1);
    classify(o, &e);
    return e;
}

bool historyLost(const bson_error_t &e)
{
    return e.code == 286 || e.code == 280; // ChangeStreamHistoryLost, ChangeStreamFatalError
}

// The check, once the collection is known to be there: when it is not, `where` says so and
// `error` is a usage error naming the names nearby.
std::vector<WatchEvent> checkNow(const WatchOptions &o, NamespaceLookup *where, SourceError *error)
{
    std::vector<WatchEvent> out;
    auto connection = MongoConnection::open(o.settings, error);
    if (!connection)
        return out;
    ServerInfo info;
    if (!ServerProbe::probe(*connection, o.database, &info, error))
        return out;
    *where = NamespaceLookup::look(*connection, o.database, o.collection);
    if (where->isMissing()) {
        *error = missing(*connection, *where);
        return out;
    }
    if (!checkOn(*connection, info, o, &out, error))
        out.clear();
    return out;
}

WatchEnd endOf(const WatchOptions &o, WatchEnd::Reason reason)
{
    WatchEnd end;
    end.reason = reason;
    end.database = o.database;
    end.collection = o.collection;
    return end;
}

QString stringAt(const bson_t *doc, const char *dotted)
{
    bson_iter_t it, found;
    return bson_iter_init(&it, doc) && bson_iter_find_descendant(&it, dotted, &found) &&
                   BSON_ITER_HOLDS_UTF8(&found)
               ? QString::fromUtf8(bson_iter_utf8(&found, nullptr))
               : QString();
}

// The change stream's $match on the operation, before the sizes are computed: the writes, and
// what ends the stream (a collection stream sees `drop`, `rename` and then `invalidate`;
// dropDatabase shows as a drop).
const QStringList kWrites = {QStringLiteral("insert"), QStringLiteral("update"),
                             QStringLiteral("replace")};
const QStringList kEnds = {QStringLiteral("drop"), QStringLiteral("rename"),
                           QStringLiteral("dropDatabase"), QStringLiteral("invalidate")};

QJsonObject operationIn(const QStringList &operations)
{
    return QJsonObject{
        {QStringLiteral("operationType"),
         QJsonObject{{QStringLiteral("$in"), QJsonArray::fromStringList(operations)}}}};
}

BsonDocument streamPipeline(const WatchOptions &o)
{
    QJsonArray stages{QJsonObject{{QStringLiteral("$match"), operationIn(kWrites + kEnds)}}};
    for (const QJsonValue &stage : sizeAndMatch(o, QStringLiteral("$fullDocument"),
                                                QJsonObject{{QStringLiteral("documentKey"), 1},
                                                            {QStringLiteral("operationType"), 1},
                                                            {QStringLiteral("clusterTime"), 1},
                                                            {QStringLiteral("ns"), 1},
                                                            {QStringLiteral("to"), 1}},
                                                QJsonArray{operationIn(kEnds)}))
        stages.append(stage);
    return pipelineOf(stages);
}

class StreamWatch
{
public:
    StreamWatch(const WatchOptions &o, const std::atomic<bool> *cancel,
                const CollectionWatch::EventCallback &onEvent,
                const CollectionWatch::StatusCallback &onStatus)
        : m_o(o), m_settings(watchSettings(o.settings)), m_cancel(cancel), m_onEvent(onEvent),
          m_onStatus(onStatus)
    {
    }

    WatchEnd run()
    {
        int backoff = 500;
        while (!cancelled()) {
            SourceError e;
            const Outcome outcome = session(&e);
            switch (outcome) {
            case Outcome::Cancelled:
                return WatchEnd::stopped();
            case Outcome::CannotStart:
                return WatchEnd::failed(e);
            case Outcome::Gone:
                return *m_gone;
            case Outcome::Lost:
            case Outcome::Streamed:
                break;
            }
            if (!m_lostAt.isValid()) {
                m_lostAt = QDateTime::currentDateTimeUtc();
                m_onStatus(QStringLiteral("connection lost (%1): resuming from the stream's "
                                          "token as soon as the server answers")
                               .arg(e.message));
            }
            pause(backoff, m_cancel);
            backoff = std::min(backoff * 2, 5000);
            if (outcome == Outcome::Streamed)
                backoff = 500;
        }
        return WatchEnd::stopped();
    }

private:
    enum class Outcome
    {
        Cancelled,
        CannotStart, // never started: the caller's error
        Lost,        // started once: try again
        Streamed,    // streamed, then lost
        Gone         // the collection is gone (m_gone): the stream cannot go on
    };

    bool cancelled() const { return m_cancel && m_cancel->load(); }

    Outcome session(SourceError *error)
    {
        auto connection = MongoConnection::open(m_settings, error);
        if (!connection)
            return m_started ? Outcome::Lost : Outcome::CannotStart;
        const QByteArray db = m_o.database.toUtf8(), coll = m_o.collection.toUtf8();
        const CollectionHandle c(mongoc_client_get_collection(MongoDriver::client(*connection),
                                                              db.constData(), coll.constData()));
        const BsonDocument pipeline = streamPipeline(m_o);
        BsonDocument opts;
        bson_append_utf8(opts.get(), "fullDocument", -1, "updateLookup", -1);
        bson_append_int64(opts.get(), "maxAwaitTimeMS", -1, 1000);
        if (m_token)
            bson_append_document(opts.get(), "resumeAfter", -1, m_token->get());
        const StreamHandle stream(mongoc_collection_watch(c.get(), pipeline.get(), opts.get()));
        // Looked up once the stream is open, so a drop from now on is an event. Resumed from a
        // token, the events since say whether it went.
        if (!m_token && isMissing(*connection, error))
            return m_started ? Outcome::Gone : Outcome::CannotStart;
        bool streamed = false;
        while (!cancelled()) {
            const bson_t *doc = nullptr;
            if (mongoc_change_stream_next(stream.get(), &doc) && !take(*connection, doc))
                return Outcome::Gone;
            bson_error_t e;
            const bson_t *reply = nullptr;
            if (mongoc_change_stream_error_document(stream.get(), &e, &reply)) {
                *error = MongoDriver::errorFrom(*connection, e,
                                                QStringLiteral("watching %1").arg(m_o.collection));
                if (m_gone) { // a drop or rename, and the stream closed before its invalidate
                    settle(*connection);
                    return Outcome::Gone;
                }
                if (historyLost(e) && m_token) {
                    missed();
                    return Outcome::Lost;
                }
                return !m_started ? Outcome::CannotStart
                       : streamed ? Outcome::Streamed
                                  : Outcome::Lost;
            }
            if (const bson_t *token = mongoc_change_stream_get_resume_token(stream.get()))
                m_token = BsonDocument::fromBytes(bsonraw::bytesOf(token));
            if (!streamed)
                started();
            streamed = true;
        }
        return Outcome::Cancelled;
    }

    // Whether the collection is not there (a usage error naming the names nearby before the
    // watch started; after, the end of the watch).
    bool isMissing(const MongoConnection &connection, SourceError *error)
    {
        const NamespaceLookup where =
            NamespaceLookup::look(connection, m_o.database, m_o.collection);
        if (!where.isMissing())
            return false;
        *error = missing(connection, where);
        m_gone = endOf(m_o, WatchEnd::Reason::Disappeared);
        m_gone->error = *error;
        return true;
    }

    // One event: a write over a threshold is delivered; a drop or rename is kept for the
    // invalidate that follows it, which ends the stream: false then.
    bool take(const MongoConnection &connection, const bson_t *doc)
    {
        const QString operation = stringAt(doc, "operationType");
        if (operation == QLatin1String("drop")) {
            m_gone = endOf(m_o, WatchEnd::Reason::Dropped);
        } else if (operation == QLatin1String("rename")) {
            m_gone = endOf(m_o, WatchEnd::Reason::Renamed);
            m_gone->renamedTo =
                stringAt(doc, "to.db") + QLatin1Char('.') + stringAt(doc, "to.coll");
        } else if (operation == QLatin1String("dropDatabase")) {
            m_gone = endOf(m_o, WatchEnd::Reason::DatabaseDropped);
        } else if (operation == QLatin1String("invalidate")) {
            if (!m_gone)
                m_gone = endOf(m_o, WatchEnd::Reason::Invalidated);
            settle(connection);
            return false;
        } else {
            deliver(eventOf(m_o, doc));
        }
        return true;
    }

    // A collection stream sees a dropDatabase as a drop: when the database has no collection
    // left, it went with it.
    void settle(const MongoConnection &connection)
    {
        if (m_gone->reason == WatchEnd::Reason::Dropped &&
            NamespaceLookup::look(connection, m_o.database, m_o.collection).state ==
                NamespaceLookup::State::NoDatabase)
            m_gone->reason = WatchEnd::Reason::DatabaseDropped;
    }

    void started()
    {
        if (m_lostAt.isValid()) {
            m_onStatus(QStringLiteral("resumed after %1 s from the stream's token: the changes "
                                      "made meanwhile follow, none is missed")
                           .arg(double(m_lostAt.msecsTo(QDateTime::currentDateTimeUtc())) / 1000.0,
                                0, 'f', 1));
            m_lostAt = {};
        } else if (!m_started) {
            m_onStatus(QStringLiteral("watching %1.%2 with a change stream (server-side $match "
                                      "on $bsonSize and $size)")
                           .arg(m_o.database, m_o.collection));
        }
        m_started = true;
    }

    // The oplog dropped the token: what changed meanwhile cannot be replayed; the documents
    // over the thresholds now are reported from a check instead, and a new stream starts.
    void missed()
    {
        m_onStatus(QStringLiteral("the server's oplog no longer holds the stream's token: "
                                  "changes since %1 cannot be replayed; reporting the documents "
                                  "over the thresholds now instead")
                       .arg(m_lostAt.isValid() ? m_lostAt.toString(Qt::ISODate)
                                               : QStringLiteral("the last event")));
        m_token.reset();
        SourceError ignored;
        for (const WatchEvent &e : CollectionWatch::check(m_o, &ignored))
            deliver(e);
    }

    void deliver(const WatchEvent &e)
    {
        if (e.overSize || e.overArray)
            m_onEvent(e);
    }

    WatchOptions m_o;
    ConnectionSettings m_settings;
    const std::atomic<bool> *m_cancel;
    CollectionWatch::EventCallback m_onEvent;
    CollectionWatch::StatusCallback m_onStatus;
    std::optional<BsonDocument> m_token;
    QDateTime m_lostAt;
    bool m_started = false;
    std::optional<WatchEnd> m_gone; // a drop or rename seen: how the watch ends
};

QString periodicStatus(const WatchOptions &o, const ServerInfo &info)
{
    return QStringLiteral("no change stream on this server (%1): checking the collection every "
                          "%2 s instead%3")
        .arg(info.isFerretDb ? QStringLiteral("FerretDB") : info.topologyName())
        .arg(double(o.intervalMs) / 1000.0, 0, 'f', 1)
        .arg(info.supportsBsonSize ? QString()
                                   : QStringLiteral(" (no $bsonSize: each document is read and "
                                                    "sized here)"));
}

// Without a change stream: the check every intervalMs, each document reported once, when it
// is first seen over; until cancelled, or until the collection is not there.
WatchEnd periodicWatch(const WatchOptions &o, const ServerInfo &info,
                       const std::atomic<bool> *cancel,
                       const CollectionWatch::EventCallback &onEvent,
                       const CollectionWatch::StatusCallback &onStatus)
{
    std::set<QString> reported;
    for (bool first = true; !(cancel && cancel->load()); first = false) {
        SourceError e;
        NamespaceLookup where;
        const std::vector<WatchEvent> now = checkNow(o, &where, &e);
        if (where.isMissing() && first)
            return WatchEnd::failed(e);
        if (where.isMissing()) {
            WatchEnd end = endOf(o, WatchEnd::Reason::Disappeared);
            end.error = e;
            return end;
        }
        if (first)
            onStatus(periodicStatus(o, info));
        if (e.isError())
            onStatus(QStringLiteral("check failed (%1): trying again").arg(e.message));
        for (const WatchEvent &event : now)
            if (reported.insert(event.id).second)
                onEvent(event);
        pause(o.intervalMs, cancel);
    }
    return WatchEnd::stopped();
}

} // namespace

QStringList WatchOptions::problems() const
{
    QStringList out;
    if (database.isEmpty() || collection.isEmpty())
        out << QStringLiteral("watch needs --db and --collection");
    if (sizeThreshold == 0 && field.isEmpty())
        out << QStringLiteral("watch needs --size-threshold BYTES or --field F with --keep N");
    for (const QString &segment : field.split(QLatin1Char('.'), Qt::KeepEmptyParts))
        if (!field.isEmpty() && (segment.isEmpty() || segment.startsWith(QLatin1Char('$')) ||
                                 segment.contains(QChar(0))))
            out << QStringLiteral("--field: '%1' is not a field path (empty part, or one "
                                  "starting with $)")
                       .arg(field);
    if (intervalMs < 100)
        out << QStringLiteral("--interval-ms: at least 100");
    out.removeDuplicates();
    return out;
}

std::vector<WatchEvent> CollectionWatch::check(const WatchOptions &options, SourceError *error)
{
    NamespaceLookup where;
    return checkNow(options, &where, error);
}

WatchEnd CollectionWatch::run(const WatchOptions &options, const std::atomic<bool> *cancel,
                              const EventCallback &onEvent, const StatusCallback &onStatus)
{
    ServerInfo info;
    SourceError error;
    if (!ServerProbe::probe(options.settings, options.database, &info, &error))
        return WatchEnd::failed(error);
    if (info.topology != ServerInfo::Topology::Standalone && !info.isFerretDb)
        return StreamWatch(options, cancel, onEvent, onStatus).run();
    return periodicWatch(options, info, cancel, onEvent, onStatus);
}

} // namespace oe
