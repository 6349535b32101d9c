#pragma once

#include "mongo/ConnectionSettings.h"

#include <QString>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace oe {

// Ends a server operation when the user cancels: while it lives it watches the cancel flag,
// and once set, it finds the operation by its comment ($currentOp: the user's own operations,
// which MongoDB lets any user see and kill) and kills it (killOp), from its own connection. A
// $group answers nothing before it has read every document, so a cancel could otherwise wait
// for the whole pass. Where the server refuses, the pass ends as it would have.
class ServerOpCanceller
{
public:
    ServerOpCanceller(ConnectionSettings settings, const std::atomic<bool> *cancel,
                      QString comment);
    ~ServerOpCanceller();
    ServerOpCanceller(const ServerOpCanceller &) = delete;
    ServerOpCanceller &operator=(const ServerOpCanceller &) = delete;

    // A comment no other operation has ("outlier-explorer <random>").
    static QString uniqueComment();

private:
    void watch();
    void kill() const;

    ConnectionSettings m_settings;
    const std::atomic<bool> *m_cancel;
    QString m_comment;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_done = false;
    std::thread m_thread;
};

} // namespace oe
