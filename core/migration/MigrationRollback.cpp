#include "MigrationRollback.h"

#include "CollectionOps.h"
#include "DocumentSplitter.h"
#include "JournalEntry.h"
#include "MigrationQueries.h"
#include "MigrationVerifier.h"

#include <QElapsedTimer>

#include <set>

namespace oe {

using Write = CollectionOps::Write;

namespace {

QByteArray setState(EntryState state)
{
    return migration::build([&](bson_t *d) {
        bson_t set;
        BSON_APPEND_DOCUMENT_BEGIN(d, "$set", &set);
        BSON_APPEND_UTF8(&set, "state", journalWord(state));
        bson_append_document_end(d, &set);
    });
}

std::uint64_t itemsIn(const QByteArray &page, const SplitConfig &config)
{
    std::uint64_t n = 0;
    QByteArray last;
    DocumentSplitter::arrayShape(page, config.itemsField, &n, &last);
    return n;
}

} // namespace

bool MigrationRollback::rollback(MongoConnection &connection, const QString &database,
                                 const SplitConfig &configIn, const MigrationOptions &options,
                                 VerifyReport *report, MigrationProgress *progress,
                                 SourceError *error, const std::atomic<bool> *cancel,
                                 const MigrationProgressCallback &callback)
{
    QElapsedTimer clock;
    clock.start();
    const SplitConfig config = configIn.withDefaults();
    *progress = {};
    progress->phase = QStringLiteral("rolling back");
    CollectionOps source(connection, database, config.collection);
    CollectionOps overflow(connection, database, config.overflowCollection);
    CollectionOps journal(connection, database, config.journalCollection());
    const QByteArray runId = migration::build([&](bson_t *d) {
        migration::appendUtf8(d, QStringLiteral("_id"), QStringLiteral("run:") + config.field);
    });
    if (!journal.bulk({{Write::Kind::ReplaceUpsert, runId,
                        JournalEntry::runDocument(config, RunState::RollingBack)}},
                      QStringLiteral("starting the rollback"), error))
        return false;
    bool stopped = false;
    const bool ok = MigrationVerifier::forEachEntryBatch(
        connection, database, config, {EntryState::Split, EntryState::Pending}, options.batch,
        [&](std::vector<JournalEntry> &entries) {
            if (cancel && cancel->load()) {
                stopped = true;
                return false;
            }
            std::vector<const JournalEntry *> work;
            for (const auto &e : entries)
                work.push_back(&e);
            for (int attempt = 0; !work.empty(); ++attempt) {
                std::vector<JournalEntry> current;
                for (const JournalEntry *e : work)
                    current.push_back(*e);
                MigrationVerifier::Loaded loaded;
                if (!MigrationVerifier::load(connection, database, config, current, &loaded, error))
                    return false;
                std::vector<Write> restores, cleanups, journalWrites;
                std::vector<QByteArray> restoring;
                std::map<QByteArray, std::vector<std::uint64_t>> pageSizes;
                std::vector<QByteArray> orphans; // pages of documents that are not split (any more)
                for (const JournalEntry &e : current) {
                    const QByteArray id = bsonraw::fromDocumentId(e.rawId);
                    const auto p = loaded.primaries.find(id);
                    const std::vector<QByteArray> pages =
                        loaded.pages.count(id) ? loaded.pages[id] : std::vector<QByteArray>();
                    const bool present = p != loaded.primaries.end();
                    const bool flagged =
                        present && DocumentSplitter::fieldValue(p->second, config.flagField) ==
                                       migration::rawTrue();
                    if (!flagged) {
                        // Never trimmed, already written back, or deleted by the application:
                        // the pages are copies or orphans.
                        orphans.push_back(id);
                        journalWrites.push_back({Write::Kind::UpdateOne,
                                                 JournalEntry::idFilter(config.field, e.rawId),
                                                 setState(EntryState::RolledBack)});
                        ++progress->migrated;
                        continue;
                    }
                    ++progress->examined;
                    if (!MigrationVerifier::check(p->second, pages, e, config, report)) {
                        ++progress->skipped; // never write back what does not match its journal
                        continue;
                    }
                    QByteArray original;
                    QString problem;
                    if (!DocumentSplitter::reassemble(p->second, pages, config, e.originalFlag,
                                                      e.originalCount, e.originalPages, &original,
                                                      &problem) ||
                        std::uint64_t(original.size()) > kMaxDocumentBytes) {
                        report->mismatch(QStringLiteral("%1: %2").arg(
                            DocumentId::toRelaxedJson(e.rawId),
                            problem.isEmpty()
                                ? QStringLiteral("would exceed 16 MiB once reassembled")
                                : problem));
                        ++progress->skipped;
                        continue;
                    }
                    std::uint64_t length = 0;
                    QByteArray last;
                    DocumentSplitter::arrayShape(p->second, config.field, &length, &last);
                    std::vector<std::pair<QString, QByteArray>> sets = {
                        {config.field, DocumentSplitter::fieldValue(original, config.field)}};
                    QStringList unsets;
                    const std::pair<QString, QByteArray> restored[] = {
                        {config.flagField, e.originalFlag},
                        {config.countField, e.originalCount},
                        {config.pagesField, e.originalPages}};
                    for (const auto &[field, value] : restored) {
                        if (field.isEmpty())
                            continue;
                        if (value.isEmpty())
                            unsets << field;
                        else
                            sets.push_back({field, value});
                    }
                    restores.push_back({Write::Kind::UpdateOne,
                                        migration::guard(config, id, length, last, true),
                                        migration::setUnset(sets, unsets)});
                    restoring.push_back(id);
                    for (const auto &page : pages)
                        pageSizes[id].push_back(itemsIn(page, config));
                }
                if (!source.bulk(restores, QStringLiteral("writing documents back"), error))
                    return false;
                // Which write-backs took effect? The rest changed meanwhile and are retried.
                std::set<QByteArray> stillFlagged;
                if (!restoring.empty() &&
                    !source.find(
                        migration::build([&](bson_t *d) {
                            migration::appendIn(d, QStringLiteral("_id"), restoring);
                            const QByteArray flag = config.flagField.toUtf8();
                            bson_append_bool(d, flag.constData(), int(flag.size()), true);
                        }),
                        {}, QStringLiteral("confirming write-backs"),
                        [&](const QByteArray &d) {
                            stillFlagged.insert(
                                DocumentSplitter::fieldValue(d, QStringLiteral("_id")));
                            return true;
                        },
                        error))
                    return false;
                std::vector<const JournalEntry *> again;
                for (const QByteArray &id : restoring) {
                    const JournalEntry *entry = nullptr;
                    for (const JournalEntry *e : work)
                        if (bsonraw::fromDocumentId(e->rawId) == id)
                            entry = e;
                    if (stillFlagged.count(id)) {
                        ++progress->retried;
                        if (attempt < options.maxRetries)
                            again.push_back(entry);
                        else
                            report->mismatch(
                                QStringLiteral("%1: changed on every attempt, left split")
                                    .arg(DocumentId::toRelaxedJson(entry->rawId)));
                        continue;
                    }
                    journalWrites.push_back({Write::Kind::UpdateOne,
                                             JournalEntry::idFilter(config.field, entry->rawId),
                                             setState(EntryState::RolledBack)});
                    ++progress->migrated;
                }
                // Pages that grew after they were read (an application appending through the
                // flag) give their extra elements to the restored array before the pages go.
                std::vector<QByteArray> done;
                for (const QByteArray &id : restoring)
                    if (!stillFlagged.count(id))
                        done.push_back(id);
                if (!done.empty()) {
                    std::vector<QByteArray> current;
                    if (!overflow.find(
                            migration::build(
                                [&](bson_t *d) { migration::appendIn(d, config.linkField, done); }),
                            {}, QStringLiteral("checking for pages that grew"),
                            [&](const QByteArray &page) {
                                current.push_back(page);
                                return true;
                            },
                            error))
                        return false;
                    for (const QByteArray &page : current) {
                        const QByteArray id = DocumentSplitter::fieldValue(page, config.linkField);
                        bson_t doc;
                        bson_iter_t it, items;
                        const QByteArray key = config.itemsField.toUtf8(),
                                         pageKey = config.pageField.toUtf8();
                        CollectionOps::view(page, &doc);
                        std::int64_t pageNo = 0;
                        if (bson_iter_init_find_w_len(&it, &doc, pageKey.constData(),
                                                      int(pageKey.size())))
                            pageNo = bson_iter_as_int64(&it);
                        const auto &sizes = pageSizes[id];
                        const std::uint64_t seen =
                            std::size_t(pageNo) < sizes.size() ? sizes[std::size_t(pageNo)] : 0;
                        std::vector<QByteArray> extra;
                        std::uint64_t i = 0;
                        if (bson_iter_init_find_w_len(&it, &doc, key.constData(),
                                                      int(key.size())) &&
                            bson_iter_recurse(&it, &items))
                            while (bson_iter_next(&items))
                                if (i++ >= seen)
                                    extra.push_back(bsonraw::valueOf(&items));
                        if (extra.empty())
                            continue;
                        const QByteArray push = migration::build([&](bson_t *d) {
                            bson_t p, each, list;
                            BSON_APPEND_DOCUMENT_BEGIN(d, "$push", &p);
                            const QByteArray field = config.field.toUtf8();
                            bson_append_document_begin(&p, field.constData(), int(field.size()),
                                                       &each);
                            BSON_APPEND_ARRAY_BEGIN(&each, "$each", &list);
                            for (std::size_t n = 0; n < extra.size(); ++n)
                                bsonraw::append(&list, std::to_string(n).c_str(), -1, extra[n]);
                            bson_append_array_end(&each, &list);
                            bson_append_document_end(&p, &each);
                            bson_append_document_end(d, &p);
                        });
                        if (!source.bulk({{Write::Kind::UpdateOne, migration::byId(id), push}},
                                         QStringLiteral("restoring late elements"), error))
                            return false;
                    }
                    cleanups.push_back({Write::Kind::DeleteMany,
                                        migration::build([&](bson_t *d) {
                                            migration::appendIn(d, config.linkField, done);
                                        }),
                                        {}});
                }
                if (!orphans.empty())
                    cleanups.push_back({Write::Kind::DeleteMany,
                                        migration::build([&](bson_t *d) {
                                            migration::appendIn(d, config.linkField, orphans);
                                        }),
                                        {}});
                if (!overflow.bulk(cleanups, QStringLiteral("deleting overflow pages"), error))
                    return false;
                if (!journal.bulk(journalWrites, QStringLiteral("recording the rollback"), error))
                    return false;
                work = again;
            }
            progress->seconds = double(clock.nsecsElapsed()) / 1e9;
            if (callback)
                callback(*progress);
            return true;
        },
        error);
    if (!ok)
        return stopped;
    if (!report->ok())
        return true; // the run stays RollingBack: what could not be restored is listed
    return journal.bulk({{Write::Kind::ReplaceUpsert, runId,
                          JournalEntry::runDocument(config, RunState::RolledBack)}},
                        QStringLiteral("finishing the rollback"), error);
}

} // namespace oe
