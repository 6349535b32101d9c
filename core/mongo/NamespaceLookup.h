#pragma once

#include "mongo/MongoConnection.h"

#include <QString>
#include <QStringList>

namespace oe {

// Whether a database and one of its collections are on the server and, when one is not, the
// names there closest to it: what a command that names a collection says when it is not there
// (a typo must not pass for an empty collection). A database exists while it holds a
// collection, so a database without one is "not there".
struct NamespaceLookup
{
    enum class State
    {
        Present,
        NoCollection, // the database is there, the collection is not
        NoDatabase,
        Unknown // the server would not list its collections (no privilege): not judged
    };
    static constexpr int kMaxNearby = 5;

    QString database;
    QString collection;
    State state = State::Unknown;
    QStringList nearby; // closest first, at most kMaxNearby (system.* collections left out)
    int candidates = 0; // how many names they were chosen from

    static NamespaceLookup look(const MongoConnection &connection, const QString &database,
                                const QString &collection);
    bool isMissing() const { return state == State::NoCollection || state == State::NoDatabase; }
    // One line: what is not there and the names nearby, each quoted.
    QString message() const;
    // A name (from the server, so anything) safe on one line: in double quotes, with quotes,
    // backslashes, control, format and line-separator characters escaped (\n, \u001b), and
    // shortened past 80 characters.
    static QString quoted(const QString &name);
};

} // namespace oe
