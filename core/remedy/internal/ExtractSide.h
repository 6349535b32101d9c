#pragma once

// Internal to core: an extraction's side collection, one document a moved value:
// {_id: the parent's _id, <the path's last name>: the value, whole}. Written before the parent
// is changed (so a value is never only in the journal), removed where the parent kept or got
// back its value.

#include "mongo/internal/CollectionOps.h"
#include "remedy/RewriteConfig.h"
#include "source/SourceError.h"

#include <QByteArray>

#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace oe {

class ExtractSide
{
public:
    ExtractSide(MongoConnection &connection, const QString &database, const RewriteConfig &config);

    // Each (parent _id, value) stored, replacing what that _id held.
    bool put(const std::vector<std::pair<QByteArray, QByteArray>> &values, SourceError *error);
    bool remove(const std::vector<QByteArray> &ids, SourceError *error);
    // The value each parent's side document holds (nullopt: none).
    bool valuesOf(const std::vector<QByteArray> &ids,
                  std::map<QByteArray, std::optional<QByteArray>> *values, SourceError *error);
    std::int64_t count(SourceError *error);

private:
    CollectionOps m_ops;
    QByteArray m_leaf;
};

} // namespace oe
