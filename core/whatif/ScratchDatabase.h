#pragma once

#include "source/SourceError.h"

#include <QString>

#include <memory>

namespace oe {

class MongoConnection;

// The what-if benchmark's database on the user's server: a new one, or one the user named that
// holds no collection at all, or one an earlier run of this tool made (its marker collection
// says so); anything else, and the server's admin, config and local, refused before anything is
// written. Marked as this tool's at once; dropped when the owner goes, whatever happened: an
// error, a cancel (Ctrl-C, SIGTERM, SIGHUP), or the end of the run.
class ScratchDatabase
{
public:
    // `name` empty: oe_whatif_<pid>_<n>, the first that does not exist.
    static std::unique_ptr<ScratchDatabase> claim(MongoConnection &connection, const QString &name,
                                                  SourceError *error);
    ~ScratchDatabase();
    ScratchDatabase(const ScratchDatabase &) = delete;
    ScratchDatabase &operator=(const ScratchDatabase &) = delete;

    QString name() const { return m_name; }
    // Drops it now (the destructor then does nothing); false with `error` set if the server
    // refused.
    bool drop(SourceError *error);

private:
    ScratchDatabase(MongoConnection &connection, QString name);
    bool mark(SourceError *error);

    MongoConnection &m_connection;
    QString m_name;
    bool m_dropped = false;
};

} // namespace oe
