#pragma once

// Internal to core: the write path of a live split, one batch at a time.

#include "migration/MigrationOptions.h"
#include "mongo/internal/CollectionOps.h"
#include "source/SourceError.h"
#include "split/DocumentSplitter.h"
#include "split/SplitConfig.h"

#include <QByteArray>
#include <QStringList>

#include <vector>

namespace oe {

class MongoConnection;

// A document read for the split, with what the split makes of it.
struct PendingDocument
{
    QByteArray original;
    QByteArray idValue;
    DocumentSplitter::Result split;
    int attempts = 0;
    std::vector<QByteArray> pageIds; // raw _id values of its pages as this run wrote or kept them
};

// Splits a batch of documents in rounds: each round journals them (with the digest of the
// original array), writes their pages, trims them with a guard proving each unchanged since it
// was read, and confirms which trims took effect; the others are redone from the document as
// it is now, up to MigrationOptions::maxRetries, or given up and their pages removed. Pages
// are removed only by _id, and pages already on the server exactly as planned are kept: both
// make the operations an interrupted run may still have on their way harmless (see
// keepIdenticalPages).
class SplitBatchWriter
{
public:
    SplitBatchWriter(MongoConnection &connection, const QString &database,
                     const SplitConfig &config, QStringList *notes);
    bool write(std::vector<PendingDocument> &batch, const MigrationOptions &options,
               MigrationProgress *progress, SourceError *error);

private:
    struct Stores;
    struct Round;
    void planRound(const std::vector<PendingDocument *> &work, bool backup, Round *round) const;
    std::vector<CollectionOps::Write> trimsOf(const Round &round) const;
    bool writePages(Round &round, Stores &stores, SourceError *error) const;
    bool keepIdenticalPages(Round &round, Stores &stores, SourceError *error) const;
    bool confirmRound(const std::vector<PendingDocument *> &work, const Round &round,
                      Stores &stores, const MigrationOptions &options, MigrationProgress *progress,
                      std::vector<PendingDocument *> *again, SourceError *error);

    MongoConnection &m_connection;
    const QString &m_database;
    const SplitConfig &m_config;
    QStringList *m_notes;
};

} // namespace oe
