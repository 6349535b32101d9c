#pragma once

// Internal to core: the few commands the what-if benchmark sends, one round trip each, over a
// MongoConnection (primary read preference), with write errors turned into SourceErrors.

#include "mongo/MongoConnection.h"
#include "source/SourceError.h"

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <vector>

namespace oe {

class WhatIfCalls
{
public:
    WhatIfCalls(MongoConnection &connection, QString database)
        : m_connection(connection), m_database(std::move(database))
    {
    }

    struct Update
    {
        std::int64_t matched = 0;
        bool upserted = false;
        bool duplicateKey = false; // the server refused the write with E11000
    };

    bool insert(const QString &collection, const std::vector<QByteArray> &documents,
                SourceError *error);
    bool updateOne(const QString &collection, const QByteArray &filter, const QByteArray &update,
                   bool upsert, Update *result, SourceError *error);
    // findAndModify with an update pipeline (`pipeline`: a BSON array's bytes), returning the
    // document after the update with the projection's fields (empty when none matched).
    bool findAndModify(const QString &collection, const QByteArray &filter,
                       const QByteArray &pipeline, const QByteArray &projection, QByteArray *after,
                       SourceError *error);
    // The first document the filter and sort find, with the projection's fields (empty when
    // none).
    bool findOne(const QString &collection, const QByteArray &filter, const QByteArray &sort,
                 const QByteArray &projection, QByteArray *document, SourceError *error);
    bool createUniqueIndex(const QString &collection, const QString &a, const QString &b,
                           SourceError *error);
    // Every collection of the database, empty ones too (listCollections).
    bool collections(QStringList *names, SourceError *error);
    bool databaseExists(bool *exists, SourceError *error);
    bool dropDatabase(SourceError *error);

private:
    QByteArray run(const QByteArray &command, const QString &step, SourceError *error);

    MongoConnection &m_connection;
    QString m_database;
};

} // namespace oe
