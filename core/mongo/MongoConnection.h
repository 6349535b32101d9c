#pragma once

#include "mongo/ConnectionSettings.h"
#include "mongo/WritePacer.h"
#include "source/SourceError.h"

#include <QString>
#include <QStringList>

#include <memory>

namespace oe {

// One client connection to a cluster, for use on one thread (within a ConnectionReuse scope,
// the connections opened on its thread with the same settings share one client). Parses the URI
// with libmongoc, applies the application name, timeouts and TLS options, and reads from
// secondaries (secondaryPreferred) unless the URI chooses a read preference. Driver errors become
// SourceErrors that name the host and the step, never the password. The driver's handle stays
// behind this header (core's internal MongoDriver reaches it), so users of core see no driver
// type.
class MongoConnection
{
public:
    static std::unique_ptr<MongoConnection> open(const ConnectionSettings &settings,
                                                 SourceError *error);
    ~MongoConnection();
    MongoConnection(const MongoConnection &) = delete;
    MongoConnection &operator=(const MongoConnection &) = delete;

    QString redactedUri() const { return m_redactedUri; }
    QString hosts() const { return m_hosts; } // "host:port,host:port" or the SRV name
    // The URI names its own wire compressors (ConnectionSettings::compressors then yields).
    bool uriNamesCompressors() const { return m_uriNamesCompressors; }
    QString defaultDatabase() const { return m_defaultDatabase; }
    // The application name the client announces to the server (the URI's appname, else
    // ConnectionSettings::appName).
    QString appName() const { return m_appName; }
    // The read preference in effect: "secondaryPreferred" unless the URI chose one.
    QString readPreference() const;

    // Runs a command on `db`, returning the reply as a BSON document's bytes (empty on error).
    QByteArray command(const QString &db, const QByteArray &commandBson, const QString &step,
                       SourceError *error) const;

    // Documents per bulk-write command on this connection, adapted by CollectionOps::bulk.
    WritePacer &writePacer() { return m_writePacer; }

    // Checks a URI without connecting: empty if valid, else the problem in one line.
    static QString validateUri(const QString &uri);

private:
    friend class MongoDriver;
    struct Driver; // the libmongoc client
    MongoConnection();

    std::shared_ptr<Driver> d; // shared by the connections of one ConnectionReuse scope
    QString m_redactedUri;
    QString m_hosts;
    bool m_uriNamesCompressors = false;
    QString m_defaultDatabase;
    QString m_appName;
    WritePacer m_writePacer;
};

} // namespace oe
