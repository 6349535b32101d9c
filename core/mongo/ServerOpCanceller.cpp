#include "mongo/ServerOpCanceller.h"

#include "bson/internal/BsonDocument.h"
#include "mongo/MongoConnection.h"
#include "mongo/internal/MongoDriver.h"

#include <QRandomGenerator>

#include <chrono>
#include <vector>

namespace oe {

ServerOpCanceller::ServerOpCanceller(ConnectionSettings settings, const std::atomic<bool> *cancel,
                                     QString comment)
    : m_settings(std::move(settings)), m_cancel(cancel), m_comment(std::move(comment))
{
    if (m_cancel)
        m_thread = std::thread([this] { watch(); });
}

ServerOpCanceller::~ServerOpCanceller()
{
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        m_done = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable())
        m_thread.join();
}

QString ServerOpCanceller::uniqueComment()
{
    return QStringLiteral("outlier-explorer %1")
        .arg(QRandomGenerator::global()->generate64(), 16, 16, QLatin1Char('0'));
}

// The flag is an atomic the caller sets, not a signal: it is looked at every 50 ms.
void ServerOpCanceller::watch()
{
    std::unique_lock<std::mutex> lock(m_mutex);
    while (!m_done) {
        if (m_wake.wait_for(lock, std::chrono::milliseconds(50), [this] { return m_done; }))
            return;
        if (m_cancel->load()) {
            lock.unlock();
            kill();
            return;
        }
    }
}

void ServerOpCanceller::kill() const
{
    SourceError ignored;
    const auto connection = MongoConnection::open(m_settings, &ignored);
    if (!connection)
        return;
    mongoc_client_t *client = MongoDriver::client(*connection);
    BsonDocument pipeline;
    bson_t stages, stage, body, match, project;
    BSON_APPEND_ARRAY_BEGIN(pipeline.get(), "pipeline", &stages);
    BSON_APPEND_DOCUMENT_BEGIN(&stages, "0", &stage);
    BSON_APPEND_DOCUMENT_BEGIN(&stage, "$currentOp", &body);
    bson_append_document_end(&stage, &body);
    bson_append_document_end(&stages, &stage);
    BSON_APPEND_DOCUMENT_BEGIN(&stages, "1", &stage);
    BSON_APPEND_DOCUMENT_BEGIN(&stage, "$match", &match);
    BSON_APPEND_UTF8(&match, "command.comment", m_comment.toUtf8().constData());
    bson_append_document_end(&stage, &match);
    bson_append_document_end(&stages, &stage);
    BSON_APPEND_DOCUMENT_BEGIN(&stages, "2", &stage);
    BSON_APPEND_DOCUMENT_BEGIN(&stage, "$project", &project);
    BSON_APPEND_INT32(&project, "opid", 1);
    bson_append_document_end(&stage, &project);
    bson_append_document_end(&stages, &stage);
    bson_append_array_end(pipeline.get(), &stages);
    const DatabaseHandle admin(mongoc_client_get_database(client, "admin"));
    const CursorHandle cursor(
        mongoc_database_aggregate(admin.get(), pipeline.get(), nullptr, nullptr));
    std::vector<BsonDocument> kills;
    const bson_t *op = nullptr;
    while (mongoc_cursor_next(cursor.get(), &op)) {
        bson_iter_t id;
        if (!bson_iter_init_find(&id, op, "opid"))
            continue;
        BsonDocument command;
        BSON_APPEND_INT32(command.get(), "killOp", 1);
        bson_append_iter(command.get(), "op", 2, &id);
        kills.push_back(std::move(command));
    }
    for (const BsonDocument &command : kills) {
        BsonDocument reply;
        bson_error_t e;
        mongoc_client_command_simple(client, "admin", command.get(), nullptr, reply.reply(), &e);
    }
}

} // namespace oe
