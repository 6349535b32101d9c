#include "OverflowMigrator.h"

#include "CollectionOps.h"
#include "DocumentSplitter.h"
#include "JournalEntry.h"
#include "MigrationPreflight.h"
#include "MigrationQueries.h"
#include "MongoConnection.h"

#include <QElapsedTimer>
#include <QThread>

#include <map>

namespace oe {

using Write = CollectionOps::Write;
using migration::idText;
using migration::idValueOf;

struct OverflowMigrator::Batch
{
    struct Item
    {
        QByteArray original;
        QByteArray idValue;
        DocumentSplitter::Result split;
        int attempts = 0;
    };
    std::vector<Item> items;
};

OverflowMigrator::OverflowMigrator(ConnectionSettings settings, QString database,
                                   SplitConfig config)
    : m_settings(std::move(settings)), m_database(std::move(database)),
      m_config(config.withDefaults())
{
}

OverflowMigrator::~OverflowMigrator() = default;

bool OverflowMigrator::prepare(SourceError *error)
{
    m_notes.clear();
    if (const QStringList problems = m_config.problems(); !problems.isEmpty()) {
        error->kind = SourceError::Kind::Usage;
        error->message = problems.join(QStringLiteral("; "));
        return false;
    }
    if (!m_connection) {
        m_connection = MongoConnection::open(m_settings, error);
        if (!m_connection)
            return false;
    }
    if (!MigrationPreflight::check(*m_connection, m_database, m_config, &m_notes, error))
        return false;
    m_prepared = true;
    return true;
}

bool OverflowMigrator::resumePending(MigrationProgress *progress, SourceError *error)
{
    CollectionOps journal(*m_connection, m_database, m_config.journalCollection());
    CollectionOps source(*m_connection, m_database, m_config.collection);
    CollectionOps overflow(*m_connection, m_database, m_config.overflowCollection);
    std::vector<JournalEntry> pending;
    const QByteArray filter = migration::build([&](bson_t *d) {
        BSON_APPEND_UTF8(d, "kind", "document");
        migration::appendUtf8(d, QStringLiteral("run"), m_config.field);
        BSON_APPEND_UTF8(d, "state", journalWord(EntryState::Pending));
    });
    if (!journal.find(
            filter, {}, QStringLiteral("reading pending journal entries"),
            [&](const QByteArray &doc) {
                JournalEntry e;
                if (JournalEntry::fromBson(doc, &e))
                    pending.push_back(e);
                return true;
            },
            error))
        return false;
    for (const JournalEntry &entry : pending) {
        const QByteArray idValue = bsonraw::fromDocumentId(entry.rawId);
        QByteArray primary;
        if (!source.find(
                migration::byId(idValue), {}, QStringLiteral("resuming"),
                [&](const QByteArray &d) {
                    primary = d;
                    return false;
                },
                error))
            return false;
        const bool trimmed =
            !primary.isEmpty() &&
            DocumentSplitter::fieldValue(primary, m_config.flagField) == migration::rawTrue();
        std::vector<Write> writes;
        if (trimmed) {
            // The trim happened before the interruption: check the pages, then record it.
            std::vector<QByteArray> pages;
            const QByteArray sorted = migration::build([&](bson_t *d) {
                bson_t s;
                BSON_APPEND_DOCUMENT_BEGIN(d, "sort", &s);
                const QByteArray page = m_config.pageField.toUtf8();
                bson_append_int32(&s, page.constData(), int(page.size()), 1);
                bson_append_document_end(d, &s);
            });
            if (!overflow.find(
                    migration::pagesOf(m_config, idValue), sorted, QStringLiteral("resuming"),
                    [&](const QByteArray &p) {
                        pages.push_back(p);
                        return true;
                    },
                    error))
                return false;
            QByteArray digest;
            std::uint64_t total = 0;
            QString problem;
            if (!DocumentSplitter::concatenatedDigest(primary, pages, m_config, entry.length,
                                                      &digest, &total, &problem) ||
                digest != entry.digest) {
                m_notes << QStringLiteral("%1: trimmed before an interruption but its pages do not "
                                          "match the journal; "
                                          "left for verify")
                               .arg(idText(idValue));
                continue;
            }
            writes.push_back({Write::Kind::UpdateOne,
                              JournalEntry::idFilter(m_config.field, entry.rawId),
                              migration::build([](bson_t *d) {
                                  bson_t set;
                                  BSON_APPEND_DOCUMENT_BEGIN(d, "$set", &set);
                                  BSON_APPEND_UTF8(&set, "state", journalWord(EntryState::Split));
                                  bson_append_document_end(d, &set);
                              })});
            ++progress->migrated;
        } else {
            // Never trimmed: its pages are copies; start that document afresh.
            if (!overflow.bulk(
                    {{Write::Kind::DeleteMany, migration::pagesOf(m_config, idValue), {}}},
                    QStringLiteral("resuming"), error))
                return false;
            writes.push_back(
                {Write::Kind::DeleteMany, JournalEntry::idFilter(m_config.field, entry.rawId), {}});
        }
        if (!journal.bulk(writes, QStringLiteral("resuming"), error))
            return false;
    }
    return true;
}

bool OverflowMigrator::processBatch(Batch &batch, const MigrationOptions &options,
                                    MigrationProgress *progress, SourceError *error)
{
    CollectionOps source(*m_connection, m_database, m_config.collection);
    CollectionOps overflow(*m_connection, m_database, m_config.overflowCollection);
    CollectionOps journal(*m_connection, m_database, m_config.journalCollection());
    std::unique_ptr<CollectionOps> backup;
    if (!options.backupCollection.isEmpty())
        backup =
            std::make_unique<CollectionOps>(*m_connection, m_database, options.backupCollection);

    auto pageInserts = [](const std::vector<Batch::Item *> &items) {
        std::vector<Write> inserts;
        for (const Batch::Item *item : items)
            for (const QByteArray &page : item->split.pages)
                inserts.push_back({Write::Kind::Insert, {}, page});
        return inserts;
    };
    // A redo deletes the documents' pages (one statement) and inserts them afresh. Pages of a
    // document without the flag are copies nobody else reads or writes: the application turns
    // to the pages only once the flag is set, and only our trim sets it. (Replacing page by
    // page by (link, page) instead was one full collection scan per page on servers that use
    // an index only for a lone _id filter, FerretDB: a 428-page document took 20 s to redo,
    // longer than the application took to append to it again, so the redo never caught up.)
    auto rewritePages = [&](const std::vector<Batch::Item *> &items, SourceError *e) {
        if (items.empty())
            return true;
        std::vector<QByteArray> ids;
        for (const Batch::Item *item : items)
            ids.push_back(item->idValue);
        return overflow.bulk({{Write::Kind::DeleteMany, migration::pagesOfAny(m_config, ids), {}}},
                             QStringLiteral("removing stale overflow pages"), e) &&
               overflow.bulk(pageInserts(items), QStringLiteral("writing overflow pages"), e);
    };

    std::vector<Batch::Item *> work;
    for (auto &item : batch.items)
        if (item.split.kind == DocumentSplitter::Result::Kind::Split)
            work.push_back(&item);
    while (!work.empty()) {
        std::vector<Write> journalWrites, backupWrites;
        std::map<QByteArray, std::vector<QByteArray>> trimGroups; // update -> guards
        std::vector<Batch::Item *> fresh, rewrite;
        std::vector<QByteArray> ids;
        for (Batch::Item *item : work) {
            const auto &r = item->split;
            JournalEntry entry{
                m_config.field, r.rawId,         r.length,        r.digest,
                r.originalFlag, r.originalCount, r.originalPages, EntryState::Pending};
            journalWrites.push_back({Write::Kind::ReplaceUpsert,
                                     JournalEntry::idFilter(m_config.field, r.rawId),
                                     entry.toBson()});
            if (backup)
                backupWrites.push_back(
                    {Write::Kind::ReplaceUpsert, migration::byId(item->idValue), item->original});
            (item->attempts == 0 ? fresh : rewrite).push_back(item);
            std::uint64_t length = 0;
            QByteArray last;
            DocumentSplitter::arrayShape(item->original, m_config.field, &length, &last);
            std::vector<std::pair<QString, QByteArray>> sets = {
                {m_config.field, DocumentSplitter::fieldValue(r.primary, m_config.field)},
                {m_config.flagField, DocumentSplitter::fieldValue(r.primary, m_config.flagField)}};
            if (!m_config.countField.isEmpty())
                sets.push_back({m_config.countField,
                                DocumentSplitter::fieldValue(r.primary, m_config.countField)});
            if (!m_config.pagesField.isEmpty())
                sets.push_back({m_config.pagesField,
                                DocumentSplitter::fieldValue(r.primary, m_config.pagesField)});
            trimGroups[migration::setUnset(sets, {})].push_back(
                migration::guard(m_config, item->idValue, length, last, false));
            ids.push_back(item->idValue);
        }
        // Documents whose trim is the very same update (keep 0: every array becomes [], the
        // viral-post case) share one statement whose filter is the $or of their guards. Each
        // document is still updated only if its own guard holds, atomically per document where
        // the server's updates are, and the server looks for all of them at once: on servers
        // that use an index only for a lone _id (FerretDB), one collection scan per group
        // instead of one per document.
        std::vector<Write> trims;
        for (const auto &[update, guards] : trimGroups) {
            if (guards.size() == 1) {
                trims.push_back({Write::Kind::UpdateOne, guards.front(), update});
                continue;
            }
            const std::size_t most = m_connection->writePacer().perCommand();
            for (std::size_t i = 0; i < guards.size(); i += most) {
                const std::vector<QByteArray> some(
                    guards.begin() + std::ptrdiff_t(i),
                    guards.begin() + std::ptrdiff_t(std::min(guards.size(), i + most)));
                trims.push_back(
                    {Write::Kind::UpdateMany, migration::anyOf(some), update, some.size()});
            }
        }
        // Order matters: the journal (with the digest) first, then the pages, then the trim.
        if (!journal.bulk(journalWrites, QStringLiteral("writing the journal"), error) ||
            (backup && !backup->bulk(backupWrites, QStringLiteral("backing up originals"), error)))
            return false;
        // A document seen for the first time has no pages yet: insert them (the unique index
        // still forbids duplicates). If some were there (a leftover the journal did not know
        // of), rewrite them like a redo's.
        SourceError insertError;
        if (!overflow.bulk(pageInserts(fresh), QStringLiteral("writing overflow pages"),
                           &insertError))
            rewrite.insert(rewrite.end(), fresh.begin(), fresh.end());
        if (!rewritePages(rewrite, error))
            return false;
        if (options.beforeTrim)
            options.beforeTrim(ids);
        if (!source.bulk(trims, QStringLiteral("trimming primaries"), error))
            return false;

        // Which trims took effect (the flag is set)? The others met a concurrent write: they are
        // redone from the documents as they are now, read by the same query.
        std::map<QByteArray, QByteArray> now;
        const QByteArray byIds = migration::build(
            [&](bson_t *d) { migration::appendIn(d, QStringLiteral("_id"), ids); });
        if (!source.find(
                byIds, {}, QStringLiteral("confirming trims"),
                [&](const QByteArray &d) {
                    now[idValueOf(d)] = d;
                    return true;
                },
                error))
            return false;
        std::vector<Write> confirmations;
        std::vector<Batch::Item *> again;
        for (Batch::Item *item : work) {
            const auto found = now.find(item->idValue);
            const QByteArray current = found == now.end() ? QByteArray() : found->second;
            if (!current.isEmpty() &&
                DocumentSplitter::fieldValue(current, m_config.flagField) == migration::rawTrue()) {
                confirmations.push_back({Write::Kind::UpdateOne,
                                         JournalEntry::idFilter(m_config.field, item->split.rawId),
                                         migration::build([](bson_t *d) {
                                             bson_t set;
                                             BSON_APPEND_DOCUMENT_BEGIN(d, "$set", &set);
                                             BSON_APPEND_UTF8(&set, "state",
                                                              journalWord(EntryState::Split));
                                             bson_append_document_end(d, &set);
                                         })});
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
                again.push_back(item);
                continue;
            }
            // Deleted, shrunk, split by someone else, or changing too fast: undo our pages.
            ++progress->skipped;
            if (!overflow.bulk(
                    {{Write::Kind::DeleteMany, migration::pagesOf(m_config, item->idValue), {}}},
                    QStringLiteral("removing unused pages"), error))
                return false;
            confirmations.push_back({Write::Kind::DeleteMany,
                                     JournalEntry::idFilter(m_config.field, item->split.rawId),
                                     {}});
            if (item->attempts > options.maxRetries)
                m_notes << QStringLiteral("%1: changed on every attempt, left unsplit")
                               .arg(idText(item->idValue));
        }
        if (!journal.bulk(confirmations, QStringLiteral("recording progress"), error))
            return false;
        work = again;
    }
    return true;
}

bool OverflowMigrator::apply(const MigrationOptions &options, MigrationProgress *progress,
                             SourceError *error, const std::atomic<bool> *cancel,
                             const MigrationProgressCallback &callback)
{
    QElapsedTimer clock;
    clock.start();
    *progress = {};
    progress->phase = QStringLiteral("applying");
    if (!m_prepared && !prepare(error))
        return false;
    CollectionOps overflow(*m_connection, m_database, m_config.overflowCollection);
    CollectionOps journal(*m_connection, m_database, m_config.journalCollection());
    CollectionOps source(*m_connection, m_database, m_config.collection);
    if (!overflow.createUniqueIndex({m_config.linkField, m_config.pageField},
                                    QStringLiteral("creating the page index"), error))
        return false;
    const QByteArray runId = migration::build([&](bson_t *d) {
        migration::appendUtf8(d, QStringLiteral("_id"), QStringLiteral("run:") + m_config.field);
    });
    if (!journal.bulk({{Write::Kind::ReplaceUpsert, runId,
                        JournalEntry::runDocument(m_config, RunState::Applying)}},
                      QStringLiteral("starting the journal"), error))
        return false;
    if (!resumePending(progress, error))
        return false;

    Batch batch;
    bool ok = true;
    bool stopped = false;
    auto flush = [&]() {
        ok = processBatch(batch, options, progress, error);
        batch.items.clear();
        progress->seconds = double(clock.nsecsElapsed()) / 1e9;
        if (callback)
            callback(*progress);
        if (ok && options.maxDocsPerSecond > 0) {
            const double due = double(progress->examined) / options.maxDocsPerSecond;
            if (due > progress->seconds)
                QThread::msleep(static_cast<unsigned long>((due - progress->seconds) * 1000.0));
        }
        return ok;
    };
    const QByteArray opts =
        migration::build([&](bson_t *d) { BSON_APPEND_INT32(d, "batchSize", int(options.batch)); });
    if (!source.find(
            migration::candidates(m_config), opts, QStringLiteral("reading documents to split"),
            [&](const QByteArray &doc) {
                if (cancel && cancel->load()) {
                    stopped = true;
                    return false;
                }
                ++progress->examined;
                Batch::Item item;
                item.original = doc;
                item.idValue = idValueOf(doc);
                item.split =
                    DocumentSplitter::split(reinterpret_cast<const std::uint8_t *>(doc.constData()),
                                            std::uint32_t(doc.size()), m_config);
                if (item.split.kind != DocumentSplitter::Result::Kind::Split) {
                    ++progress->skipped;
                    m_notes << QStringLiteral("%1: %2").arg(
                        idText(item.idValue), item.split.problem.isEmpty()
                                                  ? QStringLiteral("nothing to move, left as it is")
                                                  : item.split.problem);
                    return true;
                }
                batch.items.push_back(std::move(item));
                return batch.items.size() < options.batch || flush();
            },
            error))
        return false;
    if (!ok || (!batch.items.empty() && !flush()))
        return false;
    if (stopped) {
        m_notes << QStringLiteral("cancelled: the run can be resumed by running split again");
        return true;
    }
    return journal.bulk({{Write::Kind::ReplaceUpsert, runId,
                          JournalEntry::runDocument(m_config, RunState::Applied)}},
                        QStringLiteral("finishing the journal"), error);
}

} // namespace oe
