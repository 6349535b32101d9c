#pragma once

// Internal to core: a GridFS bucket as the store of the values a `gridfs` rewrite moves: each
// value one file (libmongoc's mongoc_gridfs_bucket_t, so fs.files and fs.chunks as every driver
// reads them), its _id the ObjectId the document keeps, its metadata naming the document
// ({collection, path, parent: _id, type, subtype}). Files of others in the bucket are never
// read or touched: every step names its file by its _id.

#include "mongo/MongoConnection.h"
#include "remedy/RewriteConfig.h"
#include "remedy/internal/SideStore.h"

namespace oe {

class GridFsSide : public SideStore
{
public:
    GridFsSide(MongoConnection &connection, QString database, RewriteConfig config);

    bool put(const std::vector<RewriteEntry> &entries, SourceError *error) override;
    bool remove(const std::vector<RewriteEntry> &entries, SourceError *error) override;
    bool stored(const std::vector<RewriteEntry> &entries,
                std::map<QByteArray, std::optional<QByteArray>> *values,
                SourceError *error) override;
    // Others' files may share the bucket (they stay as they are), but its two collections
    // hold GridFS's documents only: a collection of other data under its name is refused.
    bool isFree(SourceError *error) override;
    // The files of this collection's path in the bucket (metadata.collection and .path).
    std::int64_t held(SourceError *error) override;
    bool tidy(QStringList *notes, SourceError *error) override;

private:
    bool putOne(struct _mongoc_gridfs_bucket_t *bucket, const RewriteEntry &entry,
                SourceError *error);
    bool dropChunks(const QByteArray &fileId, SourceError *error);
    // 1: the file is stored whole (its files document holds its length); 0: not; -1: error.
    std::int64_t isStored(const QByteArray &fileId, qsizetype length, SourceError *error);

    MongoConnection &m_connection;
    QString m_database;
    RewriteConfig m_config;
};

} // namespace oe
