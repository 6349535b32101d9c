#pragma once

#include <QString>

namespace oe {

// The parts of a connection string that a connection form edits, parsed and rebuilt with
// libmongoc's URI parser so the form and the URI field always agree. Options the form does
// not show are kept in `otherOptions` and carried over unchanged.
struct ConnectionUri
{
    bool srv = false; // mongodb+srv://
    QString hosts;    // "host:port,host:port" (or the SRV name)
    QString username;
    QString password; // never shown, logged or stored in clear text
    QString database; // the path part, also the default auth database
    QString authSource;
    QString authMechanism; // empty = the driver's default (SCRAM)
    QString replicaSet;
    bool tls = false;
    QString otherOptions; // "key=value&key=value", everything else in the query string

    // Parses `uri`; on failure returns false and says what is wrong, naming the part.
    static bool parse(const QString &uri, ConnectionUri *out, QString *error);
    // The connection string (with the password percent-encoded, when there is one).
    QString toUri() const;
    // The same without the password: what recent-connection lists store.
    QString toUriWithoutPassword() const;
};

} // namespace oe
