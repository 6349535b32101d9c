#pragma once

#include "SourceError.h"

#include <QString>

#include <memory>

namespace oe {

class MongoConnection;

// The what-if benchmark's database on the user's server: a new one, or one the user named
// that holds no data (refused otherwise, before anything is written). Dropped when the owner
// goes, whatever happened: an error, a cancel, or the end of the run.
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

    MongoConnection &m_connection;
    QString m_name;
    bool m_dropped = false;
};

} // namespace oe
