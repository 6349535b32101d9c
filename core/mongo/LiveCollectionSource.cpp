#include "mongo/LiveCollectionSource.h"
#include "mongo/internal/DriverHandles.h"
#include "mongo/internal/MongoDriver.h"
#include "mongo/internal/UnexplainedReader.h"

#include "bson/internal/BsonDocument.h"
#include "mongo/CollectionCatalog.h"
#include "mongo/MongoConnection.h"
#include "stats/SplitMix64.h"

#include <mongoc/mongoc.h>

namespace oe {

namespace {
// $sample uses a pseudo-random cursor only below 5% of the collection; above, it sorts
// everything, which needs disk on large collections.
constexpr double kRandomCursorShare = 0.05;

// The filter was validated (LiveQuery::validateFilter) before the source was made.
BsonDocument parseFilter(const QString &filter)
{
    if (filter.trimmed().isEmpty())
        return {};
    return BsonDocument::fromJson(filter.toUtf8()).value_or(BsonDocument());
}
// The user's filter and a range scan's `_id` condition, both to hold.
BsonDocument withIdCondition(BsonDocument filter, const QByteArray &idCondition)
{
    const auto condition = BsonDocument::fromBytes(idCondition);
    if (!condition || bson_empty(condition->get()))
        return filter;
    if (bson_empty(filter.get()))
        return BsonDocument::fromBytes(idCondition).value_or(BsonDocument());
    BsonDocument both;
    bson_t all;
    BSON_APPEND_ARRAY_BEGIN(both.get(), "$and", &all);
    BSON_APPEND_DOCUMENT(&all, "0", filter.get());
    BSON_APPEND_DOCUMENT(&all, "1", condition->get());
    bson_append_array_end(both.get(), &all);
    return both;
}
} // namespace

struct LiveCollectionSource::Cursor
{
    CollectionHandle collection;
    CursorHandle cursor; // destroyed first
};

LiveCollectionSource::LiveCollectionSource(ConnectionSettings settings, LiveQuery query)
    : m_settings(std::move(settings)), m_query(std::move(query))
{
}

LiveCollectionSource::~LiveCollectionSource() = default;

QString LiveCollectionSource::displayName() const
{
    const QString where = m_connection ? m_connection->hosts() : QString();
    return where.isEmpty() ? m_query.ns() : QStringLiteral("%1 on %2").arg(m_query.ns(), where);
}

std::int64_t LiveCollectionSource::cursorId() const
{
    return m_cursor && m_cursor->cursor ? mongoc_cursor_get_id(m_cursor->cursor.get()) : 0;
}

SourceError LiveCollectionSource::cursorError(const QString &step) const
{
    bson_error_t e;
    if (!m_cursor || !m_cursor->cursor || !mongoc_cursor_error(m_cursor->cursor.get(), &e))
        return {};
    SourceError err = MongoDriver::errorFrom(*m_connection, e, step);
    err.docIndex = -1;
    LiveQuery::blameFilter(m_query.filter, &err);
    return err;
}

bool LiveCollectionSource::open(SourceError *error)
{
    m_cursor.reset();
    m_consumed = 0;
    m_nextIndex = 0;
    m_reservoir.clear();
    m_reservoirNext = 0;
    m_useReservoir = false;
    m_exhausted = false;

    if (const QString problem = LiveQuery::validateFilter(m_query.filter); !problem.isEmpty()) {
        error->kind = SourceError::Kind::Usage;
        error->message = problem;
        return false;
    }
    if (!m_connection) {
        m_connection = MongoConnection::open(m_settings, error);
        if (!m_connection)
            return false;
    }
    // The collection must exist (this is also where an unreachable server shows itself).
    if (m_query.checksExistence) {
        const std::optional<bool> exists =
            MongoDriver::collectionExists(*m_connection, m_query.database, m_query.collection,
                                          QStringLiteral("opening %1").arg(m_query.ns()), error);
        if (!exists)
            return false;
        if (!*exists) {
            error->kind = SourceError::Kind::Usage;
            error->source = m_connection->hosts();
            error->message = QStringLiteral("no collection %1 in database %2")
                                 .arg(m_query.collection, m_query.database);
            return false;
        }
    }
    m_cursor = std::make_unique<Cursor>();
    m_cursor->collection.reset(mongoc_client_get_collection(
        MongoDriver::client(*m_connection), m_query.database.toUtf8().constData(),
        m_query.collection.toUtf8().constData()));
    // The collection's size from its metadata (collStats): the driver's estimated count is a
    // `count` command, which some servers (FerretDB) answer by reading every document.
    std::int64_t estimated = m_query.knownCount ? std::int64_t(*m_query.knownCount) : -1;
    if (!m_query.knownCount) {
        CollectionInfo info;
        info.database = m_query.database;
        info.name = m_query.collection;
        CollectionCatalog::fillStatistics(*m_connection, &info);
        if (info.documents)
            estimated = *info.documents;
    }
    m_collectionCount.reset();
    if (estimated >= 0)
        m_collectionCount = std::uint64_t(estimated);
    // For progress: what the scan will return, where that can be known without counting.
    m_estimated.reset();
    if (m_collectionCount && m_query.filter.trimmed().isEmpty() && m_query.idCondition.isEmpty())
        m_estimated = m_query.selection.mode == DocumentSelection::Mode::Full
                          ? *m_collectionCount
                          : std::min(*m_collectionCount, m_query.selection.count);
    startCursor();
    return true;
}

void LiveCollectionSource::startCursor()
{
    m_cursor->cursor.reset();
    const BsonDocument filterDoc =
        withIdCondition(parseFilter(m_query.filter), m_query.idCondition);
    const bson_t *filter = filterDoc.get();
    BsonDocument optsDoc;
    bson_t &opts = *optsDoc.get();
    if (m_query.maxTimeMs > 0)
        BSON_APPEND_INT64(&opts, "maxTimeMS", m_query.maxTimeMs);
    if (m_query.batchSize > 0)
        BSON_APPEND_INT32(&opts, "batchSize", m_query.batchSize);
    const auto projection = BsonDocument::fromBytes(m_query.projection);
    const QString filterText = m_query.filter.trimmed().isEmpty()
                                   ? QString()
                                   : QStringLiteral(", filter ") + m_query.filter.simplified();
    const bool sample =
        m_query.selection.mode == DocumentSelection::Mode::Sample && !m_useReservoir;
    if (sample) {
        const bool largeShare =
            !m_collectionCount ||
            double(m_query.selection.count) >= kRandomCursorShare * double(*m_collectionCount) ||
            !m_query.filter.trimmed().isEmpty();
        if (largeShare)
            BSON_APPEND_BOOL(&opts, "allowDiskUse", true);
        BsonDocument pipelineDoc;
        bson_t &pipeline = *pipelineDoc.get();
        bson_t stages;
        BSON_APPEND_ARRAY_BEGIN(&pipeline, "pipeline", &stages);
        int stage = 0;
        if (!m_query.filter.trimmed().isEmpty()) {
            bson_t match;
            bson_append_document_begin(&stages, std::to_string(stage++).c_str(), -1, &match);
            BSON_APPEND_DOCUMENT(&match, "$match", filter);
            bson_append_document_end(&stages, &match);
        }
        bson_t sampleStage, size;
        bson_append_document_begin(&stages, std::to_string(stage++).c_str(), -1, &sampleStage);
        BSON_APPEND_DOCUMENT_BEGIN(&sampleStage, "$sample", &size);
        BSON_APPEND_INT64(&size, "size", std::int64_t(m_query.selection.count));
        bson_append_document_end(&sampleStage, &size);
        bson_append_document_end(&stages, &sampleStage);
        if (projection) {
            bson_t projectStage;
            bson_append_document_begin(&stages, std::to_string(stage++).c_str(), -1, &projectStage);
            BSON_APPEND_DOCUMENT(&projectStage, "$project", projection->get());
            bson_append_document_end(&stages, &projectStage);
        }
        bson_append_array_end(&pipeline, &stages);
        m_cursor->cursor.reset(mongoc_collection_aggregate(
            m_cursor->collection.get(), MONGOC_QUERY_NONE, &pipeline, &opts, nullptr));
        m_step = QStringLiteral("sampling %1 ($sample)").arg(m_query.ns());
        m_modeDescription =
            QStringLiteral("sample %1 via $sample%2%3")
                .arg(m_query.selection.count)
                .arg(largeShare ? QStringLiteral(" (allowDiskUse)") : QString(), filterText);
    } else {
        if (m_query.selection.mode == DocumentSelection::Mode::Limit)
            BSON_APPEND_INT64(&opts, "limit", std::int64_t(m_query.selection.count));
        if (m_query.sortById && m_query.selection.mode == DocumentSelection::Mode::Full) {
            bson_t sort;
            BSON_APPEND_DOCUMENT_BEGIN(&opts, "sort", &sort);
            BSON_APPEND_INT32(&sort, "_id", 1);
            bson_append_document_end(&opts, &sort);
        }
        if (projection)
            BSON_APPEND_DOCUMENT(&opts, "projection", projection->get());
        m_cursor->cursor.reset(
            mongoc_collection_find_with_opts(m_cursor->collection.get(), filter, &opts, nullptr));
        m_step = QStringLiteral("reading %1 (find)").arg(m_query.ns());
        if (m_useReservoir)
            m_modeDescription =
                QStringLiteral(
                    "sample %1 by client-side reservoir (server lacks $sample, seed %2)%3")
                    .arg(m_query.selection.count)
                    .arg(m_query.selection.seed)
                    .arg(filterText);
        else if (m_query.selection.mode == DocumentSelection::Mode::Limit)
            m_modeDescription =
                QStringLiteral("limit %1%2").arg(m_query.selection.count).arg(filterText);
        else
            m_modeDescription = QStringLiteral("full%1").arg(filterText);
    }
}

bool LiveCollectionSource::fillReservoir(SourceError *error)
{
    // Algorithm R: after the scan, every document had the same chance k/n to be kept.
    SplitMix64 rng(m_query.selection.seed);
    const std::size_t k = std::size_t(m_query.selection.count);
    std::uint64_t seen = 0;
    const bson_t *doc = nullptr;
    while (mongoc_cursor_next(m_cursor->cursor.get(), &doc)) {
        const std::string bytes(reinterpret_cast<const char *>(bson_get_data(doc)), doc->len);
        m_consumed += doc->len;
        if (m_reservoir.size() < k) {
            m_reservoir.push_back(bytes);
        } else {
            const std::uint64_t j = rng.below(seen + 1);
            if (j < k)
                m_reservoir[std::size_t(j)] = bytes;
        }
        ++seen;
        if ((seen & 1023) == 0 && cancelled())
            return true;
    }
    const SourceError e = cursorError(m_step);
    if (e.isError()) {
        *error = e;
        return false;
    }
    return true;
}

DocumentSource::ReadResult LiveCollectionSource::read(DocumentBatch &batch, std::size_t targetBytes,
                                                      SourceError *error)
{
    batch.clear();
    if (!m_cursor)
        return ReadResult::End;
    auto append = [&](const std::uint8_t *data, std::uint32_t length) {
        const std::size_t at = batch.bytes.size();
        batch.bytes.resize(at + length);
        std::memcpy(batch.bytes.data() + at, data, length);
        batch.documents.push_back({std::uint32_t(at), length, m_nextIndex++, m_consumed});
    };

    if (m_useReservoir) {
        if (m_reservoirNext == 0 && m_reservoir.empty()) {
            if (!fillReservoir(error))
                return ReadResult::Error;
            if (m_reservoir.empty())
                return ReadResult::End;
        }
        while (m_reservoirNext < m_reservoir.size() && !batchFull(batch, targetBytes)) {
            const std::string &d = m_reservoir[m_reservoirNext++];
            append(reinterpret_cast<const std::uint8_t *>(d.data()), std::uint32_t(d.size()));
        }
        return batch.documents.empty() ? ReadResult::End : ReadResult::Batch;
    }

    if (m_exhausted)
        return ReadResult::End;
    const bson_t *doc = nullptr;
    while (!batchFull(batch, targetBytes)) {
        if (!mongoc_cursor_next(m_cursor->cursor.get(), &doc)) {
            m_exhausted = true; // the driver refuses to advance a finished cursor again
            break;
        }
        append(bson_get_data(doc), doc->len);
        m_consumed += doc->len;
        if ((batch.documents.size() & 255) == 0 && cancelled())
            return ReadResult::Batch;
    }
    if (batchFull(batch, targetBytes))
        return secondLook(batch, error) ? ReadResult::Batch : ReadResult::Error;

    bson_error_t e;
    if (mongoc_cursor_error(m_cursor->cursor.get(), &e)) {
        const bool sampleRejected = m_query.selection.mode == DocumentSelection::Mode::Sample &&
                                    m_query.samplesOnClient && !m_useReservoir &&
                                    m_nextIndex == 0 && e.domain == MONGOC_ERROR_SERVER;
        if (sampleRejected) {
            // The server does not know $sample (FerretDB, some managed services): sample
            // uniformly on the client instead.
            m_useReservoir = true;
            m_exhausted = false;
            startCursor();
            return read(batch, targetBytes, error);
        }
        *error = cursorError(m_step);
        return ReadResult::Error;
    }
    if (batch.documents.empty())
        return ReadResult::End;
    return secondLook(batch, error) ? ReadResult::Batch : ReadResult::Error;
}

bool LiveCollectionSource::secondLook(DocumentBatch &batch, SourceError *error)
{
    return !m_query.measurePlan ||
           UnexplainedReader::resolve(*m_connection, m_cursor->collection.get(),
                                      *m_query.measurePlan, m_query.unseenIds.get(),
                                      m_query.maxTimeMs, batch, error);
}

bool LiveCollectionSource::rewind(SourceError *error)
{
    return open(error);
}

} // namespace oe
