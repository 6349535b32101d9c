#pragma once

// Internal to core: an extraction's side collection, one document a moved value:
// {_id: the parent's _id, <the path's last name>: the value, whole}. Written before the parent
// is changed (so a value is never only in the journal), removed where the parent kept or got
// back its value.

#include "mongo/internal/CollectionOps.h"
#include "remedy/RewriteConfig.h"
#include "remedy/internal/SideStore.h"

namespace oe {

class ExtractSide : public SideStore
{
public:
    ExtractSide(MongoConnection &connection, const QString &database, const RewriteConfig &config);

    bool put(const std::vector<RewriteEntry> &entries, SourceError *error) override;
    bool remove(const std::vector<RewriteEntry> &entries, SourceError *error) override;
    bool stored(const std::vector<RewriteEntry> &entries,
                std::map<QByteArray, std::optional<QByteArray>> *values,
                SourceError *error) override;
    bool isFree(SourceError *error) override;
    std::int64_t held(SourceError *error) override;
    bool tidy(QStringList *notes, SourceError *error) override;
    bool dropsWhenEmpty() const override { return true; }

private:
    CollectionOps m_ops;
    QByteArray m_leaf;
    QString m_name;
};

} // namespace oe
