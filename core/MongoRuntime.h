#pragma once

#include <QStringList>

namespace oe {

// Initialises the MongoDB C driver once per process and routes its log through a handler
// that keeps debug chatter out and redacts connection strings from what it lets through.
class MongoRuntime
{
public:
    static void ensureInitialized();

    // While alive, driver warnings on this thread are collected instead of printed (so a
    // URI problem becomes part of one error line).
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
