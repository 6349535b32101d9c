#include "migration/RunFence.h"

#include "bson/internal/BsonDocument.h"
#include "mongo/MongoConnection.h"

#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QThread>

#include <set>

namespace oe {

namespace {

// The application names among the server's connections and operations that are `names`; empty
// set with `listed` false when the server does not list them ($currentOp unknown, or not
// allowed: then not even our own connection shows).
std::set<QString> connected(MongoConnection &connection, const QStringList &names, bool *listed)
{
    *listed = false;
    for (const bool allUsers : {true, false}) {
        BsonDocument command;
        bson_t pipeline, stage, op, match, cond, in, cursor;
        BSON_APPEND_INT32(command.get(), "aggregate", 1);
        BSON_APPEND_ARRAY_BEGIN(command.get(), "pipeline", &pipeline);
        BSON_APPEND_DOCUMENT_BEGIN(&pipeline, "0", &stage);
        BSON_APPEND_DOCUMENT_BEGIN(&stage, "$currentOp", &op);
        BSON_APPEND_BOOL(&op, "idleConnections", true);
        BSON_APPEND_BOOL(&op, "allUsers", allUsers);
        bson_append_document_end(&stage, &op);
        bson_append_document_end(&pipeline, &stage);
        BSON_APPEND_DOCUMENT_BEGIN(&pipeline, "1", &stage);
        BSON_APPEND_DOCUMENT_BEGIN(&stage, "$match", &match);
        BSON_APPEND_DOCUMENT_BEGIN(&match, "appName", &cond);
        BSON_APPEND_ARRAY_BEGIN(&cond, "$in", &in);
        for (int i = 0; i < names.size(); ++i) {
            const QByteArray n = names[i].toUtf8();
            bson_append_utf8(&in, std::to_string(i).c_str(), -1, n.constData(), int(n.size()));
        }
        bson_append_array_end(&cond, &in);
        bson_append_document_end(&match, &cond);
        bson_append_document_end(&stage, &match);
        bson_append_document_end(&pipeline, &stage);
        bson_append_array_end(command.get(), &pipeline);
        BSON_APPEND_DOCUMENT_BEGIN(command.get(), "cursor", &cursor);
        bson_append_document_end(command.get(), &cursor);
        SourceError ignored;
        const QByteArray reply =
            connection.command(QStringLiteral("admin"), command.bytes(),
                               QStringLiteral("listing connections"), &ignored);
        if (reply.isEmpty())
            continue;
        bson_t doc;
        bson_iter_t it, batch, entry;
        std::set<QString> found;
        if (!bson_init_static(&doc, reinterpret_cast<const std::uint8_t *>(reply.constData()),
                              std::size_t(reply.size())) ||
            !bson_iter_init(&it, &doc) ||
            !bson_iter_find_descendant(&it, "cursor.firstBatch", &batch) ||
            !BSON_ITER_HOLDS_ARRAY(&batch) || !bson_iter_recurse(&batch, &entry))
            continue;
        while (bson_iter_next(&entry)) {
            bson_iter_t field;
            if (BSON_ITER_HOLDS_DOCUMENT(&entry) && bson_iter_recurse(&entry, &field) &&
                bson_iter_find(&field, "appName") && BSON_ITER_HOLDS_UTF8(&field))
                found.insert(QString::fromUtf8(bson_iter_utf8(&field, nullptr)));
        }
        *listed = found.count(names.back()) > 0; // our own connection must show
        if (*listed)
            return found;
    }
    return {};
}

// Waits `ms` in short slices; false if cancelled meanwhile.
bool pause(int ms, const std::atomic<bool> *cancel)
{
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < ms) {
        if (cancel && cancel->load())
            return false;
        QThread::msleep(50);
    }
    return true;
}

} // namespace

QString RunFence::writerName(const QString &base)
{
    return QStringLiteral("%1 split %2")
        .arg(base)
        .arg(QRandomGenerator::system()->generate(), 8, 16, QLatin1Char('0'));
}

std::optional<bool> RunFence::isConnected(MongoConnection &connection, const QString &writer)
{
    bool listed = false;
    const bool found = connected(connection, {writer, connection.appName()}, &listed).count(writer);
    return listed ? std::optional<bool>(found) : std::nullopt;
}

bool RunFence::waitForInterrupted(MongoConnection &connection, const QString &writer,
                                  const std::atomic<bool> *cancel,
                                  const std::function<void(const QString &)> &waiting,
                                  SourceError *error)
{
    bool listed = false;
    if (!writer.isEmpty()) {
        QElapsedTimer clock;
        clock.start();
        bool told = false;
        while (connected(connection, {writer, connection.appName()}, &listed).count(writer)) {
            if (!told && waiting)
                waiting(QStringLiteral("waiting for the interrupted split's last writes to "
                                       "reach the server (%1 is still connected)")
                            .arg(writer));
            told = true;
            if (clock.elapsed() > kLimitSeconds * 1000) {
                error->kind = SourceError::Kind::Usage;
                error->message = QStringLiteral("the split '%1' is still connected to the server "
                                                "after %2 s: it is running, not interrupted; "
                                                "stop it first")
                                     .arg(writer)
                                     .arg(kLimitSeconds);
                return false;
            }
            if (!pause(100, cancel))
                return false;
        }
        if (listed)
            return true;
    }
    if (waiting)
        waiting(QStringLiteral("waiting %1 s for the interrupted split's last writes to reach "
                               "the server (it does not list its connections)")
                    .arg(kSettleSeconds));
    return pause(kSettleSeconds * 1000, cancel);
}

} // namespace oe
