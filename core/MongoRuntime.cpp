#include "MongoRuntime.h"

#include "UriRedactor.h"

#include <mongoc/mongoc.h>

#include <cstdio>
#include <cstring>
#include <mutex>

namespace oe {

namespace {
thread_local bool t_capturing = false;
thread_local QStringList t_captured;

void logHandler(mongoc_log_level_t level, const char *domain, const char *message, void *)
{
    if (level > MONGOC_LOG_LEVEL_WARNING)
        return;
    // Servers without sessions (FerretDB) reject the driver's farewell; nothing is wrong.
    if (std::strstr(message, "endSessions"))
        return;
    const QString line = UriRedactor::redactText(QString::fromUtf8(message));
    if (t_capturing) {
        t_captured << line;
        return;
    }
    std::fprintf(stderr, "mongoc %s: %s\n", domain, line.toLocal8Bit().constData());
}
} // namespace

void MongoRuntime::ensureInitialized()
{
    static std::once_flag once;
    std::call_once(once, [] {
        mongoc_init();
        mongoc_log_set_handler(logHandler, nullptr);
        mongoc_log_trace_disable();
    });
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

} // namespace oe
