#pragma once

#include <QString>

#include <optional>

namespace oe {

// A collection as the browser shows it. Statistics are absent where the server gives none.
struct CollectionInfo
{
    QString database;
    QString name;
    QString type = QStringLiteral("collection"); // "collection", "view", "timeseries"
    bool isSystem = false;                       // system.* collections
    std::optional<qint64> documents;
    std::optional<qint64> dataSize; // bytes of BSON
    std::optional<qint64> averageDocumentSize;
    std::optional<qint64> storageSize;
    std::optional<qint64> indexes;
    QString statsSource; // "collStats", "$collStats", "estimated count", or empty

    bool isView() const { return type == QLatin1String("view"); }
    QString ns() const { return database + QLatin1Char('.') + name; }
};

struct DatabaseInfo
{
    QString name;
    std::optional<qint64> sizeOnDisk;
};

} // namespace oe
