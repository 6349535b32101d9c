#include "ScratchDatabase.h"

#include "WhatIfCalls.h"

#include <QCoreApplication>

namespace oe {

ScratchDatabase::ScratchDatabase(MongoConnection &connection, QString name)
    : m_connection(connection), m_name(std::move(name))
{
}

std::unique_ptr<ScratchDatabase> ScratchDatabase::claim(MongoConnection &connection,
                                                        const QString &name, SourceError *error)
{
    if (!name.isEmpty()) {
        QStringList withData;
        if (!WhatIfCalls(connection, name).collectionsWithData(&withData, error))
            return nullptr;
        if (!withData.isEmpty()) {
            error->kind = SourceError::Kind::Usage;
            error->source = connection.redactedUri();
            error->message = QStringLiteral("--scratch-db %1 holds data (%2); name an empty "
                                            "database: the benchmark drops it when done")
                                 .arg(name, withData.join(QStringLiteral(", ")));
            return nullptr;
        }
        return std::unique_ptr<ScratchDatabase>(new ScratchDatabase(connection, name));
    }
    for (int n = 0; n < 100; ++n) {
        const QString candidate =
            QStringLiteral("oe_whatif_%1_%2").arg(QCoreApplication::applicationPid()).arg(n);
        bool exists = true;
        if (!WhatIfCalls(connection, candidate).databaseExists(&exists, error))
            return nullptr;
        if (!exists)
            return std::unique_ptr<ScratchDatabase>(new ScratchDatabase(connection, candidate));
    }
    error->kind = SourceError::Kind::Usage;
    error->message = QStringLiteral("no free oe_whatif_* database name; give --scratch-db");
    return nullptr;
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
