#include "whatif/ScratchDatabase.h"

#include "bson/internal/BsonDocument.h"
#include "whatif/internal/WhatIfCalls.h"

#include <QCoreApplication>
#include <QDateTime>

namespace oe {

ScratchDatabase::ScratchDatabase(MongoConnection &connection, QString name)
    : m_connection(connection), m_name(std::move(name))
{
}

namespace {

// The collection that says a database is one this tool made for the benchmark: written first,
// so a run that died (kill -9, a power cut) leaves a database a later run may take and drop.
const QString kMarker = QStringLiteral("oe_whatif_scratch");

SourceError refusal(const MongoConnection &connection, const QString &message)
{
    SourceError error;
    error.kind = SourceError::Kind::Usage;
    error.source = connection.redactedUri();
    error.message = message;
    return error;
}

// A database the user named: one of the server's own is never taken, nor one that holds
// anything at all (a collection, even empty, with only an index) unless this tool made it.
bool mayUse(MongoConnection &connection, const QString &name, bool *ours, SourceError *error)
{
    for (const char *system : {"admin", "config", "local"}) {
        if (name.compare(QLatin1String(system), Qt::CaseInsensitive) == 0) {
            *error = refusal(connection, QStringLiteral("--scratch-db %1 is one of the server's "
                                                        "own databases (admin, config, local); "
                                                        "name an empty database: the benchmark "
                                                        "drops it when done")
                                             .arg(name));
            return false;
        }
    }
    QStringList collections;
    if (!WhatIfCalls(connection, name).collections(&collections, error))
        return false;
    *ours = collections.removeAll(kMarker) > 0;
    if (*ours || collections.isEmpty())
        return true;
    collections.sort();
    *error = refusal(connection, QStringLiteral("--scratch-db %1 holds data (%2); name an empty "
                                                "database: the benchmark drops it when done")
                                     .arg(name, collections.join(QStringLiteral(", "))));
    return false;
}

} // namespace

std::unique_ptr<ScratchDatabase> ScratchDatabase::claim(MongoConnection &connection,
                                                        const QString &name, SourceError *error)
{
    QString chosen = name;
    bool ours = false;
    if (!name.isEmpty() && !mayUse(connection, name, &ours, error))
        return nullptr;
    for (int n = 0; chosen.isEmpty() && n < 100; ++n) {
        const QString candidate =
            QStringLiteral("oe_whatif_%1_%2").arg(QCoreApplication::applicationPid()).arg(n);
        bool exists = true;
        if (!WhatIfCalls(connection, candidate).databaseExists(&exists, error))
            return nullptr;
        if (!exists)
            chosen = candidate;
    }
    if (chosen.isEmpty()) {
        *error = refusal(connection, QStringLiteral("no free oe_whatif_* database name; give "
                                                    "--scratch-db"));
        return nullptr;
    }
    // A run's leftover is emptied first: the benchmark starts from fresh collections.
    if (ours && !WhatIfCalls(connection, chosen).dropDatabase(error))
        return nullptr;
    std::unique_ptr<ScratchDatabase> db(new ScratchDatabase(connection, chosen));
    if (!db->mark(error))
        return nullptr; // dropped: it held nothing
    return db;
}

bool ScratchDatabase::mark(SourceError *error)
{
    BsonDocument marker;
    BSON_APPEND_UTF8(marker.get(), "_id", "outlier-explorer whatif scratch database");
    BSON_APPEND_INT64(marker.get(), "pid", QCoreApplication::applicationPid());
    BSON_APPEND_DATE_TIME(marker.get(), "created", QDateTime::currentMSecsSinceEpoch());
    return WhatIfCalls(m_connection, m_name).insert(kMarker, {marker.bytes()}, error);
}

bool ScratchDatabase::drop(SourceError *error)
{
    if (m_dropped)
        return true;
    m_dropped = WhatIfCalls(m_connection, m_name).dropDatabase(error);
    return m_dropped;
}

ScratchDatabase::~ScratchDatabase()
{
    SourceError ignored; // reported by an explicit drop(); here only a last resort
    drop(&ignored);
}

} // namespace oe
