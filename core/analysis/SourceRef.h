#pragma once

#include "mongo/ConnectionSettings.h"
#include "mongo/LiveQuery.h"
#include "source/DocumentSource.h"

#include <QMetaType>
#include <QString>

#include <memory>

namespace oe {

// What a collection view analyses: a dump file, or a collection on a connection.
struct SourceRef
{
    enum class Kind
    {
        None,
        Dump,
        Collection
    };
    Kind kind = Kind::None;
    QString dumpPath;
    QString connectionName; // the tree's label for the connection
    ConnectionSettings settings;
    QString database;
    QString collection;

    bool isValid() const { return kind != Kind::None; }
    // For titles and messages; never contains a password.
    QString displayName() const;
    // The collection name a split would use (a dump's base name).
    QString collectionName() const;
    // A stable key to remember per-source state by.
    QString key() const;
    // A fresh document source reading this (query fields other than namespace from `query`).
    std::unique_ptr<DocumentSource> openSource(const LiveQuery &query) const;
};

} // namespace oe

Q_DECLARE_METATYPE(oe::SourceRef)
