#pragma once

// The live tests' common bench: the fixture's server (LiveServer::open), a database of the
// test's own, a command run on it (extended JSON) and a collection read back whole.

#include "LiveDocuments.h"
#include "LiveServer.h"

#include <QByteArray>
#include <QString>

#include <map>

class LiveBench
{
protected:
    explicit LiveBench(QString database) : m_db(std::move(database)) {}

    fixtures::LiveServer m_server;
    QString m_uri;
    const QString m_db;

    // The live server opened: empty, or what is missing.
    QString openServer()
    {
        m_server = fixtures::LiveServer::open();
        m_uri = m_server.uri();
        return m_server.isValid() ? QString() : m_server.missing();
    }
    bool run(const QString &command, QString *error = nullptr) const
    {
        QString ignored;
        return fixtures::command(m_uri, m_db, command.toUtf8(), error ? error : &ignored);
    }
    // Every document of the collection by _id (raw values).
    std::map<QByteArray, QByteArray> read(const QString &collection) const
    {
        return fixtures::readCollection(m_uri, m_db, collection);
    }
};
