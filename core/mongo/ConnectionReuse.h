#pragma once

#include "mongo/ConnectionSettings.h"

#include <memory>
#include <vector>

namespace oe {

// While one lives on a thread, MongoConnection::open on that thread with settings an earlier
// open there used shares that connection's client instead of making another: one use case's
// steps (a probe, a discovery read, the scan, the shard check) then pay for one handshake and
// one session end, not one each, which over a slow link is several round trips each. Only the
// thread that made the client uses it, as a libmongoc client requires; the connections it made
// close when the last MongoConnection using them and the scope are gone. Scopes nest: an inner
// one starts empty and the outer one is back when it ends.
class ConnectionReuse
{
public:
    ConnectionReuse();
    ~ConnectionReuse();
    ConnectionReuse(const ConnectionReuse &) = delete;
    ConnectionReuse &operator=(const ConnectionReuse &) = delete;

private:
    friend class MongoConnection;
    friend class MongoDriver;
    // The client an earlier open() in this thread's scope made with `settings`; null when there
    // is no scope or no such client.
    static std::shared_ptr<void> shared(const ConnectionSettings &settings);
    // Keeps `client` for later opens with `settings` in this thread's scope, if there is one.
    static void keep(const ConnectionSettings &settings, std::shared_ptr<void> client);
    // Lends `client` no more in this thread's scope (after it failed).
    static void forget(const void *client);

    struct Entry
    {
        ConnectionSettings settings;
        std::shared_ptr<void> client;
    };
    std::vector<Entry> m_entries;
    ConnectionReuse *m_outer = nullptr;
};

} // namespace oe
