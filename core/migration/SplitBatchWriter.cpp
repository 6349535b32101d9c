#include "migration/internal/SplitBatchWriter.h"

#include "bson/internal/BsonDocument.h"
#include "migration/JournalEntry.h"
#include "migration/internal/MigrationQueries.h"
#include "mongo/MongoConnection.h"

#include <map>
#include <set>

namespace oe {

using Write = CollectionOps::Write;
using migration::idText;
using migration::idValueOf;

SplitBatchWriter::SplitBatchWriter(MongoConnection &connection, const QString &database,
                                   const SplitConfig &config, QStringList *notes)
    : m_connection(connection), m_database(database), m_config(config), m_notes(notes)
{
}

// The collections one batch writes to.
struct SplitBatchWriter::Stores
{
    Stores(MongoConnection &connection, const QString &database, const SplitConfig &config,
           const QString &backupCollection)
        : source(connection, database, config.collection),
          overflow(connection, database, config.overflowCollection),
          journal(connection, database, config.journalCollection())
    {
        if (!backupCollection.isEmpty())
            backup = std::make_unique<CollectionOps>(connection, database, backupCollection);
    }
    CollectionOps source, overflow, journal;
    std::unique_ptr<CollectionOps> backup;
};

// One attempt at the batch's documents still to split.
struct SplitBatchWriter::Round
{
    std::vector<Write> journalWrites, backupWrites;
    std::map<QByteArray, std::vector<QByteArray>> trimGroups; // update -> guards
    std::vector<PendingDocument *> fresh, rewrite;            // pages to insert / to redo
    std::vector<QByteArray> stalePages; // _ids of pages to remove before the redo's inserts
    std::vector<QByteArray> ids;
};

namespace {

// The pages of `items` as inserts, each with an _id chosen here (recorded in the item's
// pageIds): pages are only ever deleted by _id, so that a delete an interrupted run still has on
// its way to the server can remove only the pages that run knew, never the ones written since.
std::vector<Write> pageInserts(const std::vector<PendingDocument *> &items)
{
    std::vector<Write> inserts;
    for (PendingDocument *item : items) {
        item->pageIds.clear();
        for (const QByteArray &page : item->split.pages) {
            bson_oid_t oid;
            bson_oid_init(&oid, nullptr);
            BsonDocument doc;
            BSON_APPEND_OID(doc.get(), "_id", &oid);
            bson_t view;
            CollectionOps::view(page, &view);
            bson_concat(doc.get(), &view);
            item->pageIds.push_back(QByteArray(1, char(BSON_TYPE_OID)) +
                                    QByteArray(reinterpret_cast<const char *>(oid.bytes), 12));
            inserts.push_back({Write::Kind::Insert, {}, doc.bytes()});
        }
    }
    return inserts;
}

// {_id: {$in: ids}} as a delete of those pages.
Write deletePages(const std::vector<QByteArray> &ids)
{
    return {
        Write::Kind::DeleteMany,
        migration::build([&](bson_t *d) { migration::appendIn(d, QStringLiteral("_id"), ids); }),
        {}};
}

QByteArray markSplit()
{
    return migration::build([](bson_t *d) {
        bson_t set;
        BSON_APPEND_DOCUMENT_BEGIN(d, "$set", &set);
        BSON_APPEND_UTF8(&set, "state", journalWord(EntryState::Split));
        bson_append_document_end(d, &set);
    });
}

} // namespace

// The journal entry, backup copy and guarded trim of each document.
void SplitBatchWriter::planRound(const std::vector<PendingDocument *> &work, bool backup,
                                 Round *round) const
{
    for (PendingDocument *item : work) {
        const auto &r = item->split;
        const JournalEntry entry{
            m_config.field, r.rawId,         r.length,        r.digest,
            r.originalFlag, r.originalCount, r.originalPages, EntryState::Pending};
        round->journalWrites.push_back({Write::Kind::ReplaceUpsert,
                                        JournalEntry::idFilter(m_config.field, r.rawId),
                                        entry.toBson()});
        if (backup)
            round->backupWrites.push_back(
                {Write::Kind::ReplaceUpsert, migration::byId(item->idValue), item->original});
        (item->attempts == 0 ? round->fresh : round->rewrite).push_back(item);
        std::uint64_t length = 0;
        QByteArray last;
        DocumentSplitter::arrayShape(item->original, m_config.field, &length, &last);
        std::vector<std::pair<QString, QByteArray>> sets = {
            {m_config.field, DocumentSplitter::fieldValue(r.primary, m_config.field)},
            {m_config.flagField, DocumentSplitter::fieldValue(r.primary, m_config.flagField)}};
        for (const QString &field : {m_config.countField, m_config.pagesField})
            if (!field.isEmpty())
                sets.push_back({field, DocumentSplitter::fieldValue(r.primary, field)});
        round->trimGroups[migration::setUnset(sets, {})].push_back(
            migration::guard(m_config, item->idValue, length, last, false, item->original));
        round->ids.push_back(item->idValue);
    }
}

// Documents whose trim is the very same update (keep 0: every array becomes [], the viral-post
// case) share one statement whose filter is the $or of their guards. Each document is still
// updated only if its own guard holds, atomically per document where the server's updates are,
// and the server looks for all of them at once: on servers that use an index only for a lone
// _id (FerretDB), one collection scan per group instead of one per document.
std::vector<Write> SplitBatchWriter::trimsOf(const Round &round) const
{
    std::vector<Write> trims;
    for (const auto &[update, guards] : round.trimGroups) {
        if (guards.size() == 1) {
            trims.push_back({Write::Kind::UpdateOne, guards.front(), update});
            continue;
        }
        const std::size_t most = m_connection.writePacer().perCommand();
        for (std::size_t i = 0; i < guards.size(); i += most) {
            const std::vector<QByteArray> some(
                guards.begin() + std::ptrdiff_t(i),
                guards.begin() + std::ptrdiff_t(std::min(guards.size(), i + most)));
            trims.push_back({Write::Kind::UpdateMany, migration::anyOf(some), update, some.size()});
        }
    }
    return trims;
}

// A redo deletes the documents' pages (one statement) and inserts them afresh. Pages of a
// document without the flag are copies nobody else reads or writes: the application turns to
// the pages only once the flag is set, and only our trim sets it. (Replacing page by page by
// (link, page) instead was one full collection scan per page on servers that use an index only
// for a lone _id filter, FerretDB: a 428-page document took 20 s to redo, longer than the
// application took to append to it again, so the redo never caught up.)
bool SplitBatchWriter::writePages(Round &round, Stores &stores, SourceError *error) const
{
    // A document seen for the first time has no pages yet: insert them (the unique index still
    // forbids duplicates). If some were there (a leftover the journal did not know of), rewrite
    // them like a redo's.
    SourceError insertError;
    if (!stores.overflow.bulk(pageInserts(round.fresh), QStringLiteral("writing overflow pages"),
                              &insertError))
        round.rewrite.insert(round.rewrite.end(), round.fresh.begin(), round.fresh.end());
    if (round.rewrite.empty())
        return true;
    if (!keepIdenticalPages(round, stores, error))
        return false;
    if (round.rewrite.empty())
        return true;
    return (round.stalePages.empty() ||
            stores.overflow.bulk({deletePages(round.stalePages)},
                                 QStringLiteral("removing stale overflow pages"), error)) &&
           stores.overflow.bulk(pageInserts(round.rewrite),
                                QStringLiteral("writing overflow pages"), error);
}

namespace {

// A page's number and items (raw values), what two copies of one page must agree on.
std::pair<QByteArray, QByteArray> pageContent(const QByteArray &page, const SplitConfig &c)
{
    return {DocumentSplitter::fieldValue(page, c.pageField),
            DocumentSplitter::fieldValue(page, c.itemsField)};
}

} // namespace

// Documents whose pages on the server are already exactly the ones planned are left as they
// are: those are an interrupted run's, whose trim (the same as ours) may still be on its way to
// the server. Deleting and rewriting them would leave a window in which that trim lands on a
// document whose pages are gone; keeping them, whichever trim lands first, the result is the
// same. False (with `error`) only when the pages could not be read.
bool SplitBatchWriter::keepIdenticalPages(Round &round, Stores &stores, SourceError *error) const
{
    std::vector<QByteArray> ids;
    for (const PendingDocument *item : round.rewrite)
        ids.push_back(item->idValue);
    std::map<QByteArray, std::set<std::pair<QByteArray, QByteArray>>> existing;
    std::map<QByteArray, std::vector<QByteArray>> existingIds;
    if (!stores.overflow.find(
            migration::pagesOfAny(m_config, ids), {}, QStringLiteral("reading existing pages"),
            [&](const QByteArray &page) {
                const QByteArray link = DocumentSplitter::fieldValue(page, m_config.linkField);
                existing[link].insert(pageContent(page, m_config));
                existingIds[link].push_back(
                    DocumentSplitter::fieldValue(page, QStringLiteral("_id")));
                return true;
            },
            error))
        return false;
    std::vector<PendingDocument *> differing;
    for (PendingDocument *item : round.rewrite) {
        const auto &planned = item->split.pages;
        std::vector<QByteArray> &onServer = existingIds[item->idValue];
        bool same = onServer.size() == planned.size();
        for (std::size_t k = 0; same && k < planned.size(); ++k)
            same = existing[item->idValue].count(pageContent(planned[k], m_config)) == 1;
        if (same) {
            item->pageIds = onServer;
            continue;
        }
        differing.push_back(item);
        round.stalePages.insert(round.stalePages.end(), onServer.begin(), onServer.end());
    }
    round.rewrite = differing;
    return true;
}

// Which trims took effect (the flag is set)? The others met a concurrent write: they are redone
// from the documents as they are now (returned), or given up and their pages removed.
bool SplitBatchWriter::confirmRound(const std::vector<PendingDocument *> &work, const Round &round,
                                    Stores &stores, const MigrationOptions &options,
                                    MigrationProgress *progress,
                                    std::vector<PendingDocument *> *again, SourceError *error)
{
    std::map<QByteArray, QByteArray> now;
    const QByteArray byIds = migration::build(
        [&](bson_t *d) { migration::appendIn(d, QStringLiteral("_id"), round.ids); });
    if (!stores.source.find(
            byIds, {}, QStringLiteral("confirming trims"),
            [&](const QByteArray &d) {
                now[idValueOf(d)] = d;
                return true;
            },
            error))
        return false;
    std::vector<Write> confirmations;
    for (PendingDocument *item : work) {
        const auto found = now.find(item->idValue);
        const QByteArray current = found == now.end() ? QByteArray() : found->second;
        if (!current.isEmpty() &&
            DocumentSplitter::fieldValue(current, m_config.flagField) == migration::rawTrue()) {
            confirmations.push_back({Write::Kind::UpdateOne,
                                     JournalEntry::idFilter(m_config.field, item->split.rawId),
                                     markSplit()});
            ++progress->migrated;
            progress->elementsMoved += item->split.movedElements;
            progress->pagesWritten += item->split.pages.size();
            continue;
        }
        ++progress->retried;
        const auto r = current.isEmpty()
                           ? DocumentSplitter::Result{}
                           : DocumentSplitter::split(
                                 reinterpret_cast<const std::uint8_t *>(current.constData()),
                                 std::uint32_t(current.size()), m_config);
        if (r.kind == DocumentSplitter::Result::Kind::Split &&
            ++item->attempts <= options.maxRetries) {
            item->original = current;
            item->split = r;
            again->push_back(item);
            continue;
        }
        // Deleted, shrunk, split by someone else, or changing too fast: undo our pages.
        ++progress->skipped;
        if (!item->pageIds.empty() &&
            !stores.overflow.bulk({deletePages(item->pageIds)},
                                  QStringLiteral("removing unused pages"), error))
            return false;
        confirmations.push_back({Write::Kind::DeleteMany,
                                 JournalEntry::idFilter(m_config.field, item->split.rawId),
                                 {}});
        if (item->attempts > options.maxRetries)
            *m_notes << QStringLiteral("%1: changed on every attempt, left unsplit")
                            .arg(idText(item->idValue));
    }
    return stores.journal.bulk(confirmations, QStringLiteral("recording progress"), error);
}

bool SplitBatchWriter::write(std::vector<PendingDocument> &batch, const MigrationOptions &options,
                             MigrationProgress *progress, SourceError *error)
{
    Stores stores(m_connection, m_database, m_config, options.backupCollection);
    std::vector<PendingDocument *> work;
    for (auto &item : batch)
        if (item.split.kind == DocumentSplitter::Result::Kind::Split)
            work.push_back(&item);
    while (!work.empty()) {
        Round round;
        planRound(work, stores.backup != nullptr, &round);
        // Order matters: the journal (with the digest) first, then the pages, then the trim.
        if (!stores.journal.bulk(round.journalWrites, QStringLiteral("writing the journal"),
                                 error) ||
            (stores.backup &&
             !stores.backup->bulk(round.backupWrites, QStringLiteral("backing up originals"),
                                  error)) ||
            !writePages(round, stores, error))
            return false;
        if (options.beforeTrim)
            options.beforeTrim(round.ids);
        if (!stores.source.bulk(trimsOf(round), QStringLiteral("trimming primaries"), error))
            return false;
        std::vector<PendingDocument *> again;
        if (!confirmRound(work, round, stores, options, progress, &again, error))
            return false;
        work = again;
    }
    return true;
}

} // namespace oe
