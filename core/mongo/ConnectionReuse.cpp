#include "mongo/ConnectionReuse.h"

#include <vector>

namespace oe {

namespace {
thread_local ConnectionReuse *t_current = nullptr;
} // namespace

ConnectionReuse::ConnectionReuse() : m_outer(t_current)
{
    t_current = this;
}

ConnectionReuse::~ConnectionReuse()
{
    t_current = m_outer;
}

std::shared_ptr<void> ConnectionReuse::shared(const ConnectionSettings &settings)
{
    if (!t_current)
        return nullptr;
    for (const Entry &e : t_current->m_entries)
        if (e.settings == settings)
            return e.client;
    return nullptr;
}

void ConnectionReuse::keep(const ConnectionSettings &settings, std::shared_ptr<void> client)
{
    if (t_current && !shared(settings))
        t_current->m_entries.push_back(Entry{settings, std::move(client)});
}

void ConnectionReuse::forget(const void *client)
{
    if (!t_current)
        return;
    std::erase_if(t_current->m_entries, [&](const Entry &e) { return e.client.get() == client; });
}

} // namespace oe
