#include "TypeFlipper.h"

#include "LiveDocuments.h"
#include "bson/internal/BsonDocument.h"
#include "mongo/MongoConnection.h"
#include "mongo/MongoRuntime.h"

#include <memory>

TypeFlipper::TypeFlipper(QString uri, QString database, QString collection, std::vector<Flip> flips)
    : m_uri(std::move(uri)), m_database(std::move(database)), m_collection(std::move(collection)),
      m_flips(std::move(flips))
{
}

TypeFlipper::~TypeFlipper()
{
    stop();
}

void TypeFlipper::start()
{
    oe::MongoRuntime::ensureInitialized();
    m_thread = std::thread([this] { run(); });
}

bool TypeFlipper::stop()
{
    m_stop.store(true);
    if (m_thread.joinable())
        m_thread.join();
    return m_error.isEmpty();
}

// Round after round over the documents not changed yet, each statement of a document tried
// until one modifies it, until stopped (or every document is changed).
void TypeFlipper::run()
{
    oe::ConnectionSettings settings;
    settings.uri = m_uri;
    settings.appName = QStringLiteral("oe-test-application");
    oe::SourceError e;
    const std::unique_ptr<oe::MongoConnection> connection = oe::MongoConnection::open(settings, &e);
    if (!connection) {
        m_error = e.message;
        return;
    }
    while (!m_stop.load() && m_changed.size() < m_flips.size()) {
        for (const Flip &flip : m_flips) {
            if (m_stop.load())
                return;
            if (m_changed.count(flip.id))
                continue;
            for (const QString &statement : flip.statements) {
                const QByteArray json = QStringLiteral(R"({"update": "%1", "updates": [%2]})")
                                            .arg(m_collection, statement)
                                            .toUtf8();
                const auto command = oe::BsonDocument::fromJson(json);
                if (!command) {
                    m_error = QStringLiteral("not JSON: %1").arg(QString::fromUtf8(json));
                    return;
                }
                const QByteArray reply = connection->command(
                    m_database, command->bytes(), QStringLiteral("the application's write"), &e);
                if (reply.isEmpty() ||
                    !fixtures::fieldOf(reply, QStringLiteral("writeErrors")).isEmpty()) {
                    m_error = reply.isEmpty() ? e.message : QStringLiteral("write errors");
                    return;
                }
                if (fixtures::numberOf(reply, QStringLiteral("nModified")) == 1) {
                    m_changed.insert(flip.id);
                    break;
                }
            }
        }
    }
}
