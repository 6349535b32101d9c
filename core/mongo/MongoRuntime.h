#pragma once

#include <QStringList>

namespace oe {

// Initialises the MongoDB C driver once per process and routes its log through a handler
// that keeps debug chatter out and redacts connection strings from what it lets through.
// Nothing the driver logs is printed: its warnings and errors are kept per thread (the driver
// logs on the thread that runs the operation) so an error line can name them.
class MongoRuntime
{
public:
    static void ensureInitialized();
    // The MongoDB C driver in use (mongoc_get_version()), e.g. "1.23.1".
    static QString driverVersion();

    // The driver's warnings and errors logged on this thread since the last clear, redacted,
    // distinct and joined with "; " (the latest few only); empty if none.
    static QString recentDriverMessages();
    static void clearDriverMessages();

    // While alive, driver warnings on this thread are collected here instead (so a URI
    // problem becomes part of one error line).
    class WarningCapture
    {
    public:
        WarningCapture();
        ~WarningCapture();
        QString text() const; // the warnings, joined with "; "
    private:
        QStringList m_previous;
        bool m_wasCapturing;
    };
};

} // namespace oe
