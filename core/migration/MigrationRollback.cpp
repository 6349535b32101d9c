#include "migration/MigrationRollback.h"

#include "guard/GuardSession.h"

#include "migration/JournalEntry.h"
#include "migration/MigrationVerifier.h"
#include "migration/RunFence.h"
#include "migration/internal/MigrationQueries.h"
#include "migration/internal/PageCoverage.h"
#include "mongo/internal/CollectionOps.h"
#include "source/DocumentPace.h"
#include "split/DocumentSplitter.h"

#include <QDateTime>
#include <QElapsedTimer>

#include <chrono>
#include <optional>
#include <set>
#include <thread>

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
// One attempt at a group of journaled documents: what to write back, and what to delete.
struct Round
{
    std::vector<Write> restores, journalWrites;
    std::vector<QByteArray> restoring;                          // raw _id values being written back
    std::map<QByteArray, std::vector<std::uint64_t>> pageSizes; // items per page when read
    std::vector<QByteArray> orphans;          // pages of documents that are not split (any more)
    std::map<QByteArray, QByteArray> filters; // raw _id -> {_id, shard key} of the document
    std::vector<QByteArray> recheck;          // unflagged, given their late elements: look again
    std::vector<QByteArray> inFlight; // flagged, its count not the elements stored: look again
};

// The count field's number, or -1 when the document has none (or not a number).
std::int64_t countOf(const QByteArray &document, const SplitConfig &config)
{
    bson_t doc;
    bson_iter_t it;
    const QByteArray key = config.countField.toUtf8();
    if (config.countField.isEmpty() || !CollectionOps::view(document, &doc) ||
        !bson_iter_init_find_w_len(&it, &doc, key.constData(), int(key.size())) ||
        !BSON_ITER_HOLDS_NUMBER(&it))
        return -1;
    return bson_iter_as_int64(&it);
}

// A guard that also holds the count field at the value read: the write path reserves an
// overflow slot by incrementing it, so a restore can never miss an element on its way to a page.
QByteArray withCount(const QByteArray &guard, const SplitConfig &config, const QByteArray &document)
{
    if (config.countField.isEmpty())
        return guard;
    const QByteArray count = DocumentSplitter::fieldValue(document, config.countField);
    return migration::build([&](bson_t *d) {
        bson_t g;
        CollectionOps::view(guard, &g);
        bson_concat(d, &g);
        const QByteArray key = config.countField.toUtf8();
        if (!count.isEmpty()) {
            bsonraw::append(d, key.constData(), int(key.size()), count);
        } else {
            bson_t absent;
            bson_append_document_begin(d, key.constData(), int(key.size()), &absent);
            BSON_APPEND_BOOL(&absent, "$exists", false);
            bson_append_document_end(d, &absent);
        }
    });
}

// {$push: {field: {$each: elements}}}
QByteArray pushEach(const QString &field, const std::vector<QByteArray> &elements)
{
    return migration::build([&](bson_t *d) {
        bson_t p, each, list;
        BSON_APPEND_DOCUMENT_BEGIN(d, "$push", &p);
        const QByteArray f = field.toUtf8();
        bson_append_document_begin(&p, f.constData(), int(f.size()), &each);
        BSON_APPEND_ARRAY_BEGIN(&each, "$each", &list);
        for (std::size_t n = 0; n < elements.size(); ++n)
            bsonraw::append(&list, std::to_string(n).c_str(), -1, elements[n]);
        bson_append_array_end(&each, &list);
        bson_append_document_end(&p, &each);
        bson_append_document_end(d, &p);
    });
}

// The items a page holds beyond the first `seen` (appended after it was read).
std::vector<QByteArray> itemsAfter(const QByteArray &page, const SplitConfig &config,
                                   const std::vector<std::uint64_t> &seenPerPage)
{
    bson_t doc;
    bson_iter_t it, items;
    const QByteArray key = config.itemsField.toUtf8(), pageKey = config.pageField.toUtf8();
    CollectionOps::view(page, &doc);
    std::int64_t pageNo = 0;
    if (bson_iter_init_find_w_len(&it, &doc, pageKey.constData(), int(pageKey.size())))
        pageNo = bson_iter_as_int64(&it);
    const std::uint64_t seen =
        std::size_t(pageNo) < seenPerPage.size() ? seenPerPage[std::size_t(pageNo)] : 0;
    std::vector<QByteArray> extra;
    std::uint64_t i = 0;
    if (bson_iter_init_find_w_len(&it, &doc, key.constData(), int(key.size())) &&
        bson_iter_recurse(&it, &items))
        while (bson_iter_next(&items))
            if (i++ >= seen)
                extra.push_back(bsonraw::valueOf(&items));
    return extra;
}

QByteArray linkIn(const SplitConfig &config, const std::vector<QByteArray> &ids)
{
    return migration::build([&](bson_t *d) { migration::appendIn(d, config.linkField, ids); });
}

// A rollback run: the journal's documents, batch by batch, each written back with the guard,
// confirmed, retried while the application keeps changing it, then its pages deleted.
class Rollback
{
public:
    Rollback(MongoConnection &connection, const QString &database, const SplitConfig &config,
             const MigrationOptions &options, VerifyReport *report, MigrationProgress *progress,
             SourceError *error)
        : config(config), options(options), report(report), progress(progress), error(error),
          connection(connection), database(database),
          source(connection, database, config.collection),
          overflow(connection, database, config.overflowCollection),
          journal(connection, database, config.journalCollection())
    {
    }
    bool setRunState(RunState state, const QString &step)
    {
        const QByteArray runId = migration::runDocumentId(config.field);
        // The state alone: the run's config and its count of entries stay as recorded.
        const QByteArray set = migration::build([&](bson_t *d) {
            bson_t fields;
            BSON_APPEND_DOCUMENT_BEGIN(d, "$set", &fields);
            BSON_APPEND_UTF8(&fields, "state", journalWord(state));
            BSON_APPEND_DATE_TIME(&fields, "updated", QDateTime::currentMSecsSinceEpoch());
            bson_append_document_end(d, &fields);
        });
        return journal.bulk({{Write::Kind::UpdateOne, runId, set}}, step, error);
    }
    bool batch(const std::vector<JournalEntry> &entries);

private:
    void plan(const JournalEntry &e, MigrationVerifier::Loaded &loaded, Round *round);
    void planUnflagged(const JournalEntry &e, const QByteArray &document,
                       const std::vector<QByteArray> &pages, Round *round);
    bool confirm(const Round &round, std::set<QByteArray> *stillFlagged);
    std::vector<const JournalEntry *> record(Round &round,
                                             const std::vector<const JournalEntry *> &work,
                                             const std::set<QByteArray> &stillFlagged, int attempt,
                                             std::vector<QByteArray> *done);
    void awaitInFlight(const Round &round, const std::vector<const JournalEntry *> &work,
                       int attempt, std::vector<const JournalEntry *> *again);
    bool restoreLateElements(const Round &round, const std::vector<QByteArray> &done);
    bool cleanUp(const Round &round, const std::vector<QByteArray> &done);

    const SplitConfig &config;
    const MigrationOptions &options;
    VerifyReport *report;
    MigrationProgress *progress;
    SourceError *error;
    MongoConnection &connection;
    const QString &database;
    CollectionOps source, overflow, journal;
};

bool Rollback::batch(const std::vector<JournalEntry> &entries)
{
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
        Round round;
        for (const JournalEntry &e : current)
            plan(e, loaded, &round);
        std::set<QByteArray> stillFlagged;
        if (options.beforeRestore && !round.restoring.empty())
            options.beforeRestore(round.restoring);
        if (!source.bulk(round.restores, QStringLiteral("writing documents back"), error) ||
            !confirm(round, &stillFlagged))
            return false;
        std::vector<QByteArray> done;
        std::vector<const JournalEntry *> again = record(round, work, stillFlagged, attempt, &done);
        for (const QByteArray &id : round.recheck)
            for (const JournalEntry *e : work)
                if (bsonraw::fromDocumentId(e->rawId) == id && attempt < options.maxRetries)
                    again.push_back(e);
        awaitInFlight(round, work, attempt, &again);
        work = again;
        if (!restoreLateElements(round, done) || !cleanUp(round, done) ||
            !journal.bulk(round.journalWrites, QStringLiteral("recording the rollback"), error))
            return false;
    }
    return true;
}

// One journaled document: an orphan (not flagged), a mismatch (left split), or a write-back.
void Rollback::plan(const JournalEntry &e, MigrationVerifier::Loaded &loaded, Round *round)
{
    const QByteArray id = bsonraw::fromDocumentId(e.rawId);
    const auto p = loaded.primaries.find(id);
    const std::vector<QByteArray> pages =
        loaded.pages.count(id) ? loaded.pages[id] : std::vector<QByteArray>();
    const bool present = p != loaded.primaries.end();
    const bool flagged = present && DocumentSplitter::fieldValue(p->second, config.flagField) ==
                                        migration::rawTrue();
    if (!flagged) {
        planUnflagged(e, present ? p->second : QByteArray(), pages, round);
        return;
    }
    if (const std::int64_t count = countOf(p->second, config); count >= 0) {
        std::uint64_t stored = 0;
        QByteArray last;
        DocumentSplitter::arrayShape(p->second, config.field, &stored, &last);
        for (const auto &page : pages)
            stored += itemsIn(page, config);
        if (std::uint64_t(count) != stored) { // an append between its two round trips
            round->inFlight.push_back(id);
            return;
        }
    }
    ++progress->examined;
    if (!MigrationVerifier::check(p->second, pages, e, config, report)) {
        ++progress->skipped; // never write back what does not match its journal
        return;
    }
    QByteArray original;
    QString problem;
    if (!DocumentSplitter::reassemble(p->second, pages, config, e.originalFlag, e.originalCount,
                                      e.originalPages, &original, &problem) ||
        std::uint64_t(original.size()) > MigrationRollback::kMaxDocumentBytes) {
        report->mismatch(QStringLiteral("%1: %2").arg(
            DocumentId::toRelaxedJson(e.rawId),
            problem.isEmpty() ? QStringLiteral("would exceed 16 MiB once reassembled") : problem));
        ++progress->skipped;
        return;
    }
    std::uint64_t length = 0;
    QByteArray last;
    DocumentSplitter::arrayShape(p->second, config.field, &length, &last);
    std::vector<std::pair<QString, QByteArray>> sets = {
        {config.field, DocumentSplitter::fieldValue(original, config.field)}};
    QStringList unsets;
    const std::pair<QString, QByteArray> restored[] = {{config.flagField, e.originalFlag},
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
    round->restores.push_back(
        {Write::Kind::UpdateOne,
         withCount(migration::guard(config, id, length, last, true, p->second), config, p->second),
         migration::setUnset(sets, unsets)});
    round->restoring.push_back(id);
    round->filters[id] = migration::byIdAndKey(config, id, p->second);
    for (const auto &page : pages)
        round->pageSizes[id].push_back(itemsIn(page, config));
}

// A journaled document without the flag: never trimmed, already written back (an interrupted
// rollback), deleted, or unflagged by the application. Its pages go only when the document
// provably holds every element they hold; the original being back but not yet the elements
// appended to the pages later, those are appended first (guarded) and the document looked at
// again; anything else is named and its pages kept.
void Rollback::planUnflagged(const JournalEntry &e, const QByteArray &document,
                             const std::vector<QByteArray> &pages, Round *round)
{
    const QByteArray id = bsonraw::fromDocumentId(e.rawId);
    const PageCoverage::Result c = PageCoverage::assess(document, pages, e, config);
    const QString name = DocumentId::toRelaxedJson(e.rawId);
    switch (c.verdict) {
    case PageCoverage::Verdict::NoPages:
    case PageCoverage::Verdict::Covered:
        round->orphans.push_back(id);
        round->journalWrites.push_back({Write::Kind::UpdateOne,
                                        JournalEntry::idFilter(config.field, e.rawId),
                                        setState(EntryState::RolledBack)});
        ++progress->migrated;
        return;
    case PageCoverage::Verdict::TailMissing: {
        std::uint64_t length = 0;
        QByteArray last;
        DocumentSplitter::arrayShape(document, config.field, &length, &last);
        round->restores.push_back({Write::Kind::UpdateOne,
                                   migration::guard(config, id, length, last, false, document),
                                   pushEach(config.field, c.missing)});
        round->recheck.push_back(id);
        return;
    }
    case PageCoverage::Verdict::Deleted:
        report->mismatch(QStringLiteral("%1: deleted since the split; its %2 overflow page "
                                        "item(s) are kept in %3")
                             .arg(name)
                             .arg(c.pageItems)
                             .arg(config.overflowCollection));
        break;
    case PageCoverage::Verdict::Uncovered:
        report->mismatch(QStringLiteral("%1: not flagged %2 (its flag cleared by the "
                                        "application?): its %3 overflow page item(s) are kept in "
                                        "%4")
                             .arg(name, c.why)
                             .arg(c.pageItems)
                             .arg(config.overflowCollection));
        break;
    }
    ++progress->skipped;
}

// Documents whose count is not the number of elements stored: an application's append is
// between its two round trips (its slot taken, its element not yet on its page), or one died
// there. Looked at again after a pause that doubles each time (10 ms up to 1 s); after
// maxRetries they are named and left split, their pages kept.
void Rollback::awaitInFlight(const Round &round, const std::vector<const JournalEntry *> &work,
                             int attempt, std::vector<const JournalEntry *> *again)
{
    if (round.inFlight.empty())
        return;
    for (const QByteArray &id : round.inFlight)
        for (const JournalEntry *e : work) {
            if (bsonraw::fromDocumentId(e->rawId) != id)
                continue;
            if (attempt < options.maxRetries) {
                again->push_back(e);
                continue;
            }
            report->mismatch(QStringLiteral("%1: %2 does not equal the elements stored on every "
                                            "attempt (an append interrupted between its two "
                                            "round trips?); left split, its pages kept")
                                 .arg(DocumentId::toRelaxedJson(e->rawId), config.countField));
            ++progress->skipped;
        }
    if (attempt < options.maxRetries)
        std::this_thread::sleep_for(
            std::chrono::milliseconds(std::min(1000, 10 << std::min(attempt, 7))));
}

// Which write-backs took effect? The rest changed meanwhile (still flagged) and are retried.
bool Rollback::confirm(const Round &round, std::set<QByteArray> *stillFlagged)
{
    if (round.restoring.empty())
        return true;
    return source.find(
        migration::build([&](bson_t *d) {
            migration::appendIn(d, QStringLiteral("_id"), round.restoring);
            const QByteArray flag = config.flagField.toUtf8();
            bson_append_bool(d, flag.constData(), int(flag.size()), true);
        }),
        {}, QStringLiteral("confirming write-backs"),
        [&](const QByteArray &d) {
            stillFlagged->insert(DocumentSplitter::fieldValue(d, QStringLiteral("_id")));
            return true;
        },
        error);
}

// Journals what was restored (into `done`); returns what to try again.
std::vector<const JournalEntry *> Rollback::record(Round &round,
                                                   const std::vector<const JournalEntry *> &work,
                                                   const std::set<QByteArray> &stillFlagged,
                                                   int attempt, std::vector<QByteArray> *done)
{
    std::vector<const JournalEntry *> again;
    for (const QByteArray &id : round.restoring) {
        const JournalEntry *entry = nullptr;
        for (const JournalEntry *e : work)
            if (bsonraw::fromDocumentId(e->rawId) == id)
                entry = e;
        if (stillFlagged.count(id)) {
            ++progress->retried;
            if (attempt < options.maxRetries)
                again.push_back(entry);
            else
                report->mismatch(QStringLiteral("%1: changed on every attempt, left split")
                                     .arg(DocumentId::toRelaxedJson(entry->rawId)));
            continue;
        }
        round.journalWrites.push_back({Write::Kind::UpdateOne,
                                       JournalEntry::idFilter(config.field, entry->rawId),
                                       setState(EntryState::RolledBack)});
        ++progress->migrated;
        done->push_back(id);
    }
    return again;
}

// Pages that grew after they were read (an application appending through the flag) give
// their extra elements to the restored array before the pages go.
bool Rollback::restoreLateElements(const Round &round, const std::vector<QByteArray> &done)
{
    if (done.empty())
        return true;
    std::vector<QByteArray> pages;
    if (!overflow.find(
            linkIn(config, done), {}, QStringLiteral("checking for pages that grew"),
            [&](const QByteArray &page) {
                pages.push_back(page);
                return true;
            },
            error))
        return false;
    for (const QByteArray &page : pages) {
        const QByteArray id = DocumentSplitter::fieldValue(page, config.linkField);
        const auto seen = round.pageSizes.find(id);
        const std::vector<QByteArray> extra =
            itemsAfter(page, config,
                       seen == round.pageSizes.end() ? std::vector<std::uint64_t>() : seen->second);
        const auto filter = round.filters.find(id);
        if (!extra.empty() &&
            !source.bulk({{Write::Kind::UpdateOne,
                           filter == round.filters.end() ? migration::byId(id) : filter->second,
                           pushEach(config.field, extra)}},
                         QStringLiteral("restoring late elements"), error))
            return false;
    }
    return true;
}

// The pages of restored documents, and of documents that were not split (any more).
bool Rollback::cleanUp(const Round &round, const std::vector<QByteArray> &done)
{
    std::vector<Write> cleanups;
    if (!done.empty())
        cleanups.push_back({Write::Kind::DeleteMany, linkIn(config, done), {}});
    if (!round.orphans.empty())
        cleanups.push_back({Write::Kind::DeleteMany, linkIn(config, round.orphans), {}});
    return overflow.bulk(cleanups, QStringLiteral("deleting overflow pages"), error);
}

} // namespace

// A split the journal shows running (its writer recorded) was interrupted, or still runs: its
// last writes may not have reached the server yet (RunFence). False when cancelled or failed.
bool MigrationRollback::awaitInterruptedSplit(MongoConnection &connection, const QString &database,
                                              const SplitConfig &config,
                                              MigrationProgress *progress, SourceError *error,
                                              const std::atomic<bool> *cancel,
                                              const MigrationProgressCallback &callback)
{
    QByteArray run;
    if (!MigrationVerifier::readRunDocument(connection, database, config, &run, error))
        return false;
    const std::optional<QString> writer = JournalEntry::writerOf(run);
    if (!writer)
        return true;
    return RunFence::waitForInterrupted(
        connection, *writer, cancel,
        [&](const QString &what) {
            progress->phase = what;
            if (callback)
                callback(*progress);
        },
        error);
}

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
    if (!awaitInterruptedSplit(connection, database, config, progress, error, cancel, callback)) {
        progress->stopped = !error->isError(); // cancelled while waiting: nothing was written
        return progress->stopped;
    }
    progress->phase = QStringLiteral("rolling back");
    Rollback run(connection, database, config, options, report, progress, error);
    if (!run.setRunState(RunState::RollingBack, QStringLiteral("starting the rollback")))
        return false;
    // A guard on the collection would refuse the restored arrays: its previous validator comes
    // back first (as `guard --remove` does), and stays once the rollback is done.
    // Its other rules (a type rule) do not refuse them and stay.
    const GuardOutcome guard = GuardSession::liftSplitRule(connection, database, config.collection);
    if (!guard.ok) {
        *error = guard.error;
        return false;
    }
    if (guard.removed && !guard.keptRules.isEmpty())
        progress->notes << guard.message;
    else if (guard.removed)
        progress->notes << QStringLiteral("the guard on %1 was removed: its previous validator "
                                          "is back")
                                   .arg(config.collection) +
                               (guard.notes.isEmpty() ? QString()
                                                      : QStringLiteral(" (") +
                                                            guard.notes.join(QStringLiteral("; ")) +
                                                            QLatin1Char(')'));
    bool stopped = false;
    const DocumentPace pace(options.maxDocsPerSecond);
    std::uint64_t handled = 0;
    BatchSizer sizer(options.batch);
    const bool ok = MigrationVerifier::forEachEntryBatch(
        connection, database, config, {EntryState::Split, EntryState::Pending}, sizer,
        [&](std::vector<JournalEntry> &entries) {
            if (cancel && cancel->load()) {
                stopped = true;
                return false;
            }
            if (!run.batch(entries))
                return false;
            progress->seconds = double(clock.nsecsElapsed()) / 1e9;
            if (callback)
                callback(*progress);
            handled += entries.size();
            pace.after(handled);
            return true;
        },
        error);
    progress->stopped = stopped;
    if (!ok)
        return stopped;
    if (!report->ok())
        return true; // the run stays RollingBack: what could not be restored is listed
    return run.setRunState(RunState::RolledBack, QStringLiteral("finishing the rollback"));
}

} // namespace oe
