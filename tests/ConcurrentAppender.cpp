#include "ConcurrentAppender.h"

#include "mongo/MongoConnection.h"
#include "mongo/MongoRuntime.h"
#include "split/SplitConfig.h"
#include "whatif/OverflowAppender.h"

#include <bson/bson.h>

#include <memory>

namespace {

QByteArray rawUtf8(const std::string &value)
{
    const auto length = std::uint32_t(value.size() + 1);
    return QByteArray(1, char(BSON_TYPE_UTF8)) +
           QByteArray(reinterpret_cast<const char *>(&length), 4) +
           QByteArray(value.c_str(), qsizetype(value.size())) + QByteArray(1, '\0');
}

// The product's write path on a connection of the thread's own.
struct Session
{
    explicit Session(const ConcurrentAppender::Target &t)
    {
        oe::ConnectionSettings settings;
        settings.uri = t.uri;
        settings.appName = QStringLiteral("oe-test-application");
        oe::SourceError error;
        connection = oe::MongoConnection::open(settings, &error);
        if (!connection)
            return;
        oe::SplitConfig c;
        c.collection = t.collection;
        c.overflowCollection = t.overflow;
        c.field = t.field;
        c.flagField = t.flag;
        c.countField = t.count;
        c.keep = t.keep;
        c.pageSize = t.pageSize;
        appender = std::make_unique<oe::OverflowAppender>(*connection, t.database, c);
    }
    bool valid() const { return appender != nullptr; }
    bool append(const QByteArray &id, const std::string &value, ConcurrentAppender::Path *path,
                QString *error)
    {
        oe::OverflowAppender::Path taken = oe::OverflowAppender::Path::Document;
        oe::SourceError e;
        if (!appender->append(id, rawUtf8(value), &taken, &e)) {
            *error = e.toString();
            return false;
        }
        *path = taken == oe::OverflowAppender::Path::Document ? ConcurrentAppender::Path::Primary
                : taken == oe::OverflowAppender::Path::Page   ? ConcurrentAppender::Path::Page
                                                              : ConcurrentAppender::Path::NewPage;
        return true;
    }

    std::unique_ptr<oe::MongoConnection> connection;
    std::unique_ptr<oe::OverflowAppender> appender;
};

} // namespace

ConcurrentAppender::ConcurrentAppender(Target target, std::vector<QByteArray> ids,
                                       std::chrono::milliseconds pace, std::string name)
    : m_target(std::move(target)), m_ids(std::move(ids)), m_pace(pace), m_name(std::move(name))
{
}

ConcurrentAppender::~ConcurrentAppender()
{
    stop(0);
}

void ConcurrentAppender::start()
{
    oe::MongoRuntime::ensureInitialized();
    m_thread = std::thread([this] { run(); });
}

bool ConcurrentAppender::stop(int minimum)
{
    m_minimum.store(minimum);
    m_stop.store(true);
    if (m_thread.joinable())
        m_thread.join();
    return m_error.isEmpty();
}

int ConcurrentAppender::duringMigration(Path path) const
{
    const auto it = m_duringByPath.find(path);
    return it == m_duringByPath.end() ? 0 : it->second;
}

int ConcurrentAppender::documentsWrittenAcrossTheirTrim() const
{
    int n = 0;
    for (const auto &[id, flagStates] : m_flagSeenDuring)
        n += flagStates.size() == 2 ? 1 : 0;
    return n;
}

bool ConcurrentAppender::appendNow(const QByteArray &id, Path *path)
{
    oe::MongoRuntime::ensureInitialized();
    Session session(m_target);
    if (!session.valid()) {
        m_error = QStringLiteral("invalid URI");
        return false;
    }
    const std::string value = "now-" + std::to_string(m_count.load());
    Path taken = Path::Primary;
    if (!session.append(id, value, &taken, &m_error))
        return false;
    m_elements[id] << rawUtf8(value);
    ++m_count;
    if (path)
        *path = taken;
    return true;
}

void ConcurrentAppender::run()
{
    Session session(m_target);
    if (!session.valid()) {
        m_error = QStringLiteral("invalid URI");
        return;
    }
    for (int n = 0; !m_ids.empty() && (!m_stop.load() || n < m_minimum.load()); ++n) {
        const QByteArray &id = m_ids[std::size_t(n) % m_ids.size()];
        const std::string value = m_name + '-' + std::to_string(n);
        const bool during = m_during.load();
        Path path = Path::Primary;
        QString error;
        if (!session.append(id, value, &path, &error)) {
            m_error = error;
            break;
        }
        m_elements[id] << rawUtf8(value);
        ++m_count;
        if (during) {
            ++m_duringByPath[path];
            m_flagSeenDuring[id].insert(path != Path::Primary);
        }
        std::this_thread::sleep_for(m_pace); // an application's pace, not a flood
    }
}
