#include "OverflowMigrator.h"

#include "CollectionOps.h"
#include "DocumentSplitter.h"
#include "JournalEntry.h"
#include "MigrationQueries.h"
#include "MongoConnection.h"

#include <QElapsedTimer>
#include <QThread>

#include <set>

namespace oe {

using Write = CollectionOps::Write;

namespace {

QByteArray idValueOf(const QByteArray &doc)
{
    return DocumentSplitter::fieldValue(doc, QStringLiteral("_id"));
}

QString idText(const QByteArray &idValue)
{
    return DocumentId::toRelaxedJson(bsonraw::toDocumentId(idValue));
}

QByteArray projectionId()
{
    return migration::build([](bson_t *d) {
        bson_t p;
        BSON_APPEND_DOCUMENT_BEGIN(d, "projection", &p);
        BSON_APPEND_INT32(&p, "_id", 1);
        bson_append_document_end(d, &p);
    });
}

bool sameConfig(const SplitConfig &a, const SplitConfig &b)
{
    return a.field == b.field && a.keep == b.keep && a.pageSize == b.pageSize &&
           a.overflowCollection == b.overflowCollection && a.linkField == b.linkField &&
           a.pageField == b.pageField && a.itemsField == b.itemsField &&
           a.flagField == b.flagField && a.countField == b.countField &&
           a.pagesField == b.pagesField;
}

} // namespace

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
    CollectionOps source(*m_connection, m_database, m_config.collection);
    if (!source.exists(error)) {
        if (!error->isError()) {
            error->kind = SourceError::Kind::Usage;
            error->source = m_connection->hosts();
            error->message = QStringLiteral("no collection %1").arg(source.ns());
        }
        return false;
    }

    // The field must exist somewhere (a typo would otherwise "succeed" doing nothing)...
    const QByteArray present = migration::build([&](bson_t *d) {
        migration::appendUserFilter(d, m_config.filter);
        const QByteArray f = m_config.field.toUtf8();
        bson_t cond;
        bson_append_document_begin(d, f.constData(), int(f.size()), &cond);
        BSON_APPEND_BOOL(&cond, "$exists", true);
        bson_append_document_end(d, &cond);
    });
    const std::int64_t withField = source.count(present, QStringLiteral("checking the field"), error);
    if (withField < 0)
        return false;
    if (withField == 0) {
        error->kind = SourceError::Kind::Usage;
        error->source = m_connection->hosts();
        error->message = QStringLiteral("no document of %1 has a field '%2'%3; nothing written")
                             .arg(source.ns(), m_config.field,
                                  m_config.filter.isEmpty() ? QString() : QStringLiteral(" matching the filter"));
        return false;
    }
    // ...be an array wherever it exists, and not lie inside an array.
    const QByteArray notArray = migration::build([&](bson_t *d) {
        migration::appendUserFilter(d, m_config.filter);
        const QByteArray f = m_config.field.toUtf8();
        bson_t cond, notType;
        bson_append_document_begin(d, f.constData(), int(f.size()), &cond);
        BSON_APPEND_BOOL(&cond, "$exists", true);
        BSON_APPEND_DOCUMENT_BEGIN(&cond, "$not", &notType);
        BSON_APPEND_UTF8(&notType, "$type", "array");
        bson_append_document_end(&cond, &notType);
        bson_append_document_end(d, &cond);
    });
    const std::int64_t wrong =
        source.count(notArray, QStringLiteral("checking the field's type"), error);
    if (wrong < 0)
        return false;
    if (wrong > 0) {
        QByteArray example;
        source.find(
            notArray, projectionId(), QStringLiteral("checking the field's type"),
            [&](const QByteArray &d) {
                example = idValueOf(d);
                return false;
            },
            error);
        error->kind = SourceError::Kind::InvalidData;
        error->source = m_connection->hosts();
        error->message =
            QStringLiteral(
                "field '%1' is not an array in %2 document(s) of %3, e.g. _id %4; nothing written")
                .arg(m_config.field)
                .arg(wrong)
                .arg(source.ns(), idText(example));
        return false;
    }
    const QStringList segments = m_config.pathSegments();
    for (qsizetype i = 1; i < segments.size(); ++i) {
        const QString prefix = segments.mid(0, i).join(QLatin1Char('.'));
        const QByteArray insideArray = migration::build([&](bson_t *d) {
            migration::appendUserFilter(d, m_config.filter);
            const QByteArray p = prefix.toUtf8();
            bson_t cond;
            bson_append_document_begin(d, p.constData(), int(p.size()), &cond);
            BSON_APPEND_UTF8(&cond, "$type", "array");
            bson_append_document_end(d, &cond);
        });
        const std::int64_t n =
            source.count(insideArray, QStringLiteral("checking the field's path"), error);
        if (n < 0)
            return false;
        if (n > 0) {
            error->kind = SourceError::Kind::Usage;
            error->source = m_connection->hosts();
            error->message =
                QStringLiteral(
                    "'%1' is an array in %2 document(s): '%3' lies inside arrays of documents, "
                    "which cannot be split; nothing written")
                    .arg(prefix)
                    .arg(n)
                    .arg(m_config.field);
            return false;
        }
    }

    // Earlier runs: the same field resumes only with the same configuration.
    CollectionOps journal(*m_connection, m_database, m_config.journalCollection());
    bool runExists = false;
    bool conflict = false;
    const QByteArray runs = migration::build([](bson_t *d) { BSON_APPEND_UTF8(d, "kind", "run"); });
    if (!journal.find(
            runs, {}, QStringLiteral("reading the migration journal"),
            [&](const QByteArray &doc) {
                SplitConfig earlier;
                QString state;
                if (!JournalEntry::configFromRunDocument(doc, &earlier, &state))
                    return true;
                const bool active = state != QLatin1String("rolled_back");
                if (earlier.field == m_config.field) {
                    runExists = true;
                    if (!sameConfig(earlier, m_config) && active) {
                        error->kind = SourceError::Kind::Usage;
                        error->message =
                            QStringLiteral("field '%1' was migrated with another configuration "
                                           "(keep %2, page size "
                                           "%3, overflow %4; state %5): roll that back first")
                                .arg(earlier.field)
                                .arg(earlier.keep)
                                .arg(earlier.pageSize)
                                .arg(earlier.overflowCollection, state);
                        conflict = true;
                        return false;
                    }
                    if (state != QLatin1String("applied") && state != QLatin1String("rolled_back"))
                        m_notes << QStringLiteral("resuming the interrupted %1 of field '%2'")
                                       .arg(state, earlier.field);
                } else if (active && (earlier.flagField == m_config.flagField ||
                                      earlier.overflowCollection == m_config.overflowCollection)) {
                    error->kind = SourceError::Kind::Usage;
                    error->message =
                        QStringLiteral(
                            "field '%1' is already migrated with the same flag field or overflow "
                            "collection; choose others or roll it back first")
                            .arg(earlier.field);
                    conflict = true;
                    return false;
                }
                return true;
            },
            error))
        return false;
    if (conflict)
        return false;

    // The overflow collection may hold only pages, and only ours.
    CollectionOps overflow(*m_connection, m_database, m_config.overflowCollection);
    const std::int64_t pages =
        overflow.count(migration::build([](bson_t *) {}),
                       QStringLiteral("checking the overflow collection"), error);
    if (pages < 0)
        return false;
    if (pages > 0) {
        const QByteArray foreign = migration::build([&](bson_t *d) {
            bson_t list, a, b, ea, eb;
            BSON_APPEND_ARRAY_BEGIN(d, "$or", &list);
            BSON_APPEND_DOCUMENT_BEGIN(&list, "0", &a);
            const QByteArray link = m_config.linkField.toUtf8(), page = m_config.pageField.toUtf8();
            bson_append_document_begin(&a, link.constData(), int(link.size()), &ea);
            BSON_APPEND_BOOL(&ea, "$exists", false);
            bson_append_document_end(&a, &ea);
            bson_append_document_end(&list, &a);
            BSON_APPEND_DOCUMENT_BEGIN(&list, "1", &b);
            bson_append_document_begin(&b, page.constData(), int(page.size()), &eb);
            BSON_APPEND_BOOL(&eb, "$exists", false);
            bson_append_document_end(&b, &eb);
            bson_append_document_end(&list, &b);
            bson_append_array_end(d, &list);
        });
        const std::int64_t n =
            overflow.count(foreign, QStringLiteral("checking the overflow collection"), error);
        if (n < 0)
            return false;
        if (n > 0 || !runExists) {
            error->kind = SourceError::Kind::Usage;
            error->source = m_connection->hosts();
            error->message =
                n > 0
                    ? QStringLiteral(
                          "the overflow collection %1 holds %2 document(s) that are not overflow "
                          "pages (no '%3' or '%4'); choose another --overflow-collection")
                          .arg(overflow.ns())
                          .arg(n)
                          .arg(m_config.linkField, m_config.pageField)
                    : QStringLiteral(
                          "the overflow collection %1 already holds %2 document(s) not written by "
                          "a migration of '%3'; choose another --overflow-collection")
                          .arg(overflow.ns())
                          .arg(pages)
                          .arg(m_config.field);
            return false;
        }
    }
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
        BSON_APPEND_UTF8(d, "state", "pending");
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
                                  BSON_APPEND_UTF8(&set, "state", "split");
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

    std::vector<Batch::Item *> work;
    for (auto &item : batch.items)
        if (item.split.kind == DocumentSplitter::Result::Kind::Split)
            work.push_back(&item);
    while (!work.empty()) {
        // A document seen for the first time has no pages yet: insert them (the unique index
        // still forbids duplicates). Redos replace by (link, page) and drop stale pages; that
        // path is slower on servers that cannot use the index for update filters (FerretDB).
        std::vector<Write> journalWrites, backupWrites, newPages, redoPages, trims;
        std::vector<QByteArray> ids;
        for (Batch::Item *item : work) {
            const auto &r = item->split;
            JournalEntry entry{
                m_config.field, r.rawId,         r.length,        r.digest,
                r.originalFlag, r.originalCount, r.originalPages, QStringLiteral("pending")};
            journalWrites.push_back({Write::Kind::ReplaceUpsert,
                                     JournalEntry::idFilter(m_config.field, r.rawId),
                                     entry.toBson()});
            if (backup)
                backupWrites.push_back(
                    {Write::Kind::ReplaceUpsert, migration::byId(item->idValue), item->original});
            if (item->attempts == 0) {
                for (const QByteArray &page : r.pages)
                    newPages.push_back({Write::Kind::Insert, {}, page});
            } else {
                for (std::size_t k = 0; k < r.pages.size(); ++k)
                    redoPages.push_back(
                        {Write::Kind::ReplaceUpsert,
                         migration::onePage(m_config, item->idValue, std::int64_t(k)), r.pages[k]});
                redoPages.push_back(
                    {Write::Kind::DeleteMany,
                     migration::pagesOf(m_config, item->idValue, std::int64_t(r.pages.size())),
                     {}});
            }
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
            trims.push_back({Write::Kind::UpdateOne,
                             migration::guard(m_config, item->idValue, length, last, false),
                             migration::setUnset(sets, {})});
            ids.push_back(item->idValue);
        }
        // Order matters: the journal (with the digest) first, then the pages, then the trim.
        if (!journal.bulk(journalWrites, QStringLiteral("writing the journal"), error) ||
            (backup && !backup->bulk(backupWrites, QStringLiteral("backing up originals"), error)))
            return false;
        SourceError insertError;
        if (!overflow.bulk(newPages, QStringLiteral("writing overflow pages"), &insertError)) {
            // Pages already there (a leftover the journal did not know of): take the redo path.
            for (Batch::Item *item : work) {
                if (item->attempts != 0)
                    continue;
                for (std::size_t k = 0; k < item->split.pages.size(); ++k)
                    redoPages.push_back(
                        {Write::Kind::ReplaceUpsert,
                         migration::onePage(m_config, item->idValue, std::int64_t(k)),
                         item->split.pages[k]});
                redoPages.push_back({Write::Kind::DeleteMany,
                                     migration::pagesOf(m_config, item->idValue,
                                                        std::int64_t(item->split.pages.size())),
                                     {}});
            }
        }
        if (!overflow.bulk(redoPages, QStringLiteral("writing overflow pages"), error) ||
            !source.bulk(trims, QStringLiteral("trimming primaries"), error))
            return false;

        // Which trims took effect? The others met a concurrent write and are redone.
        std::set<QByteArray> done;
        const QByteArray flaggedNow = migration::build([&](bson_t *d) {
            migration::appendIn(d, QStringLiteral("_id"), ids);
            const QByteArray flag = m_config.flagField.toUtf8();
            bson_append_bool(d, flag.constData(), int(flag.size()), true);
        });
        if (!source.find(
                flaggedNow, projectionId(), QStringLiteral("confirming trims"),
                [&](const QByteArray &d) {
                    done.insert(idValueOf(d));
                    return true;
                },
                error))
            return false;
        std::vector<Write> confirmations;
        std::vector<Batch::Item *> again;
        for (Batch::Item *item : work) {
            if (done.count(item->idValue)) {
                confirmations.push_back({Write::Kind::UpdateOne,
                                         JournalEntry::idFilter(m_config.field, item->split.rawId),
                                         migration::build([](bson_t *d) {
                                             bson_t set;
                                             BSON_APPEND_DOCUMENT_BEGIN(d, "$set", &set);
                                             BSON_APPEND_UTF8(&set, "state", "split");
                                             bson_append_document_end(d, &set);
                                         })});
                ++progress->migrated;
                progress->elementsMoved += item->split.movedElements;
                progress->pagesWritten += item->split.pages.size();
                continue;
            }
            // Re-read and redo: the application wrote to it since we read it.
            ++progress->retried;
            QByteArray current;
            if (!source.find(
                    migration::byId(item->idValue), {},
                    QStringLiteral("re-reading a changed document"),
                    [&](const QByteArray &d) {
                        current = d;
                        return false;
                    },
                    error))
                return false;
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
                        JournalEntry::runDocument(m_config, QStringLiteral("applying"))}},
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
                if (item.split.kind == DocumentSplitter::Result::Kind::Invalid) {
                    ++progress->skipped;
                    m_notes << QStringLiteral("%1: %2").arg(idText(item.idValue),
                                                            item.split.problem);
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
                          JournalEntry::runDocument(m_config, QStringLiteral("applied"))}},
                        QStringLiteral("finishing the journal"), error);
}

} // namespace oe
