#include "mongo/MongoRuntime.h"

#include "mongo/UriRedactor.h"

#include <mongoc/mongoc.h>

#include <cstring>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <mutex>

namespace oe {

namespace {
// A failing operation can make the driver repeat itself (one warning per server per scan):
// keep the few latest distinct messages, enough to explain the error that follows.
constexpr qsizetype kRecentLimit = 4;

thread_local bool t_capturing = false;
thread_local QStringList t_captured;
thread_local QStringList t_recent;

void remember(const QString &line)
{
    t_recent.removeAll(line);
    t_recent << line;
    while (t_recent.size() > kRecentLimit)
        t_recent.removeFirst();
}

void logHandler(mongoc_log_level_t level, const char *, const char *message, void *)
{
    if (level > MONGOC_LOG_LEVEL_WARNING)
        return;
    // Servers without sessions (FerretDB) reject the driver's farewell; nothing is wrong.
    if (std::strstr(message, "endSessions"))
        return;
    const QString line = UriRedactor::redactText(QString::fromUtf8(message)).simplified();
    if (t_capturing)
        t_captured << line;
    else
        remember(line); // never printed: a line of its own would break the one-line errors
}

// The driver reads each cursor reply (up to 16 MB from a server) into a fresh buffer. Above
// glibc's default mmap threshold that buffer is mapped and unmapped every time, so every page of
// every reply faults in zeroed memory again: a third of a live scan's client CPU, measured on
// mongod. Serving such buffers from the heap (kept up to the trim threshold) reuses the pages.
void keepReplyBuffersInTheHeap()
{
#ifdef __GLIBC__
    constexpr int kMmapThreshold = 32 << 20; // glibc's largest allowed value on 64-bit
    mallopt(M_MMAP_THRESHOLD, kMmapThreshold);
    mallopt(M_TRIM_THRESHOLD, 4 * kMmapThreshold);
#endif
}
} // namespace

void MongoRuntime::ensureInitialized()
{
    static std::once_flag once;
    std::call_once(once, [] {
        keepReplyBuffersInTheHeap();
        // The handler first: mongoc_init itself may warn (no shared memory for its counters).
        mongoc_log_set_handler(logHandler, nullptr);
        mongoc_log_trace_disable();
        mongoc_init();
    });
}

QString MongoRuntime::recentDriverMessages()
{
    return t_recent.join(QStringLiteral("; "));
}

void MongoRuntime::clearDriverMessages()
{
    t_recent.clear();
}

MongoRuntime::WarningCapture::WarningCapture() : m_previous(t_captured), m_wasCapturing(t_capturing)
{
    ensureInitialized();
    t_captured.clear();
    t_capturing = true;
}

MongoRuntime::WarningCapture::~WarningCapture()
{
    t_captured = m_previous;
    t_capturing = m_wasCapturing;
}

QString MongoRuntime::WarningCapture::text() const
{
    return t_captured.join(QStringLiteral("; "));
}

QString MongoRuntime::driverVersion()
{
    return QString::fromLatin1(mongoc_get_version());
}

} // namespace oe
