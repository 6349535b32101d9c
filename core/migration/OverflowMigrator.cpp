#include "migration/OverflowMigrator.h"

#include "migration/BatchSizer.h"
#include "migration/JournalEntry.h"
#include "migration/MigrationPreflight.h"
#include "migration/RunFence.h"
#include "migration/internal/MigrationQueries.h"
#include "migration/internal/SplitBatchWriter.h"
#include "mongo/MongoConnection.h"
#include "mongo/internal/CollectionOps.h"
#include "source/DocumentPace.h"
#include "split/DocumentSplitter.h"

#include <QElapsedTimer>

#include <map>

namespace oe {

namespace {
const QString kStoppedNote =
    QStringLiteral("cancelled: the run can be resumed by running split again");
} // namespace

using Write = CollectionOps::Write;
using migration::idText;
using migration::idValueOf;

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
        ConnectionSettings settings = m_settings;
        settings.appName = RunFence::writerName(settings.appName);
        m_connection = MongoConnection::open(settings, error);
        if (!m_connection)
            return false;
        // Unique unless the URI names the application itself: then unknown (empty).
        m_writer = m_connection->appName() == settings.appName ? settings.appName : QString();
    }
    if (!MigrationPreflight::sharding(*m_connection, m_database, &m_config, &m_notes, error) ||
        !MigrationPreflight::check(*m_connection, m_database, m_config, &m_notes, error))
        return false;
    m_prepared = true;
    return true;
}

bool OverflowMigrator::resumePending(const MigrationOptions &options, MigrationProgress *progress,
                                     SourceError *error)
{
    CollectionOps journal(*m_connection, m_database, m_config.journalCollection());
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
    std::vector<PendingDocument> unfinished;
    for (const JournalEntry &entry : pending)
        if (!resumeOne(entry, progress, &unfinished, error))
            return false;
    if (unfinished.empty())
        return true;
    // Split now with the same pages and the same guarded trim the interrupted run may still
    // have on its way: its pages stay in place throughout (SplitBatchWriter keeps identical
    // pages), and whichever trim lands first, the other finds the document flagged.
    SplitBatchWriter writer(*m_connection, m_database, m_config, &m_notes);
    return writer.write(unfinished, options, progress, error);
}

// One document the journal left pending:
// - trimmed and its pages intact: it was split (recorded now);
// - untrimmed and still exactly as journaled (same array): the interrupted run's trim may still
//   be on its way to the server (a killed client's last message is executed after it died),
//   so its pages must stay: the document goes to `unfinished`, to be split with the same trim;
// - untrimmed and changed since, or deleted: no trim of the interrupted run can match it any
//   more (each guards the array's exact length and last element), so its pages are copies
//   nobody reads: dropped, and the document starts afresh.
bool OverflowMigrator::resumeOne(const JournalEntry &entry, MigrationProgress *progress,
                                 std::vector<PendingDocument> *unfinished, SourceError *error)
{
    CollectionOps journal(*m_connection, m_database, m_config.journalCollection());
    CollectionOps source(*m_connection, m_database, m_config.collection);
    CollectionOps overflow(*m_connection, m_database, m_config.overflowCollection);
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
        bool match = false;
        if (!pagesMatchJournal(entry, primary, &match, error))
            return false;
        if (!match) {
            m_notes << QStringLiteral("%1: trimmed before an interruption but its pages do not "
                                      "match the journal; left for verify")
                           .arg(idText(idValue));
            return true;
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
        return journal.bulk(writes, QStringLiteral("resuming"), error);
    }
    if (!primary.isEmpty()) {
        PendingDocument item;
        item.original = primary;
        item.idValue = idValue;
        item.split =
            DocumentSplitter::split(reinterpret_cast<const std::uint8_t *>(primary.constData()),
                                    std::uint32_t(primary.size()), m_config);
        if (item.split.kind == DocumentSplitter::Result::Kind::Split &&
            item.split.length == entry.length && item.split.digest == entry.digest) {
            unfinished->push_back(std::move(item));
            return true;
        }
    }
    if (!overflow.bulk({{Write::Kind::DeleteMany, migration::pagesOf(m_config, idValue), {}}},
                       QStringLiteral("resuming"), error))
        return false;
    writes.push_back(
        {Write::Kind::DeleteMany, JournalEntry::idFilter(m_config.field, entry.rawId), {}});
    return journal.bulk(writes, QStringLiteral("resuming"), error);
}

// The trimmed primary and its pages, in page order, hold exactly the elements the journal
// recorded (same count, same digest).
bool OverflowMigrator::pagesMatchJournal(const JournalEntry &entry, const QByteArray &primary,
                                         bool *match, SourceError *error)
{
    CollectionOps overflow(*m_connection, m_database, m_config.overflowCollection);
    const QByteArray idValue = bsonraw::fromDocumentId(entry.rawId);
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
    *match = DocumentSplitter::concatenatedDigest(primary, pages, m_config, entry.length, &digest,
                                                  &total, &problem) &&
             digest == entry.digest;
    return true;
}

// The run's document in the journal; once applied, with the number of its document entries.
bool OverflowMigrator::markRun(RunState state, const QString &step, SourceError *error,
                               bool running)
{
    CollectionOps journal(*m_connection, m_database, m_config.journalCollection());
    const QByteArray runId = migration::runDocumentId(m_config.field);
    std::optional<std::uint64_t> documents;
    if (state == RunState::Applied) {
        const std::int64_t n =
            journal.count(migration::build([&](bson_t *d) {
                              BSON_APPEND_UTF8(d, "kind", "document");
                              migration::appendUtf8(d, QStringLiteral("run"), m_config.field);
                          }),
                          step, error);
        if (n < 0)
            return false;
        documents = std::uint64_t(n);
    }
    return journal.bulk(
        {{Write::Kind::ReplaceUpsert, runId,
          JournalEntry::runDocument(m_config, state, documents,
                                    running ? std::optional(m_writer) : std::nullopt)}},
        step, error);
}

bool OverflowMigrator::apply(const MigrationOptions &options, MigrationProgress *progress,
                             SourceError *error, const std::atomic<bool> *cancel,
                             const MigrationProgressCallback &callback)
{
    *progress = {};
    progress->phase = QStringLiteral("applying");
    m_notes.removeAll(kStoppedNote); // an earlier run's stop, resumed now
    if (!m_prepared && !prepare(error))
        return false;
    CollectionOps overflow(*m_connection, m_database, m_config.overflowCollection);
    if (!overflow.createUniqueIndex({m_config.linkField, m_config.pageField},
                                    QStringLiteral("creating the page index"), error))
        return false;
    if (!markRun(RunState::Applying, QStringLiteral("starting the journal"), error, true) ||
        !resumePending(options, progress, error))
        return false;
    bool stopped = false;
    if (!splitAll(options, progress, error, cancel, callback, &stopped))
        return false;
    progress->stopped = stopped;
    if (stopped) {
        m_notes << kStoppedNote;
        return markRun(RunState::Applying, QStringLiteral("recording the stop"), error);
    }
    return markRun(RunState::Applied, QStringLiteral("finishing the journal"), error);
}

// Every candidate document, read in batches and written by SplitBatchWriter; the pace held to
// options.maxDocsPerSecond. `stopped` when `cancel` was raised.
bool OverflowMigrator::splitAll(const MigrationOptions &options, MigrationProgress *progress,
                                SourceError *error, const std::atomic<bool> *cancel,
                                const MigrationProgressCallback &callback, bool *stopped)
{
    QElapsedTimer clock;
    clock.start();
    const DocumentPace pace(options.maxDocsPerSecond);
    CollectionOps source(*m_connection, m_database, m_config.collection);
    SplitBatchWriter writer(*m_connection, m_database, m_config, &m_notes);
    std::vector<PendingDocument> batch;
    BatchSizer sizer(options.batch);
    bool ok = true;
    auto flush = [&]() {
        QElapsedTimer took;
        took.start();
        ok = writer.write(batch, options, progress, error);
        sizer.took(double(took.nsecsElapsed()) / 1e9);
        batch.clear();
        progress->seconds = double(clock.nsecsElapsed()) / 1e9;
        if (callback)
            callback(*progress);
        if (ok)
            pace.after(progress->examined);
        return ok;
    };
    const QByteArray opts =
        migration::build([&](bson_t *d) { BSON_APPEND_INT32(d, "batchSize", int(options.batch)); });
    if (!source.find(
            migration::candidates(m_config), opts, QStringLiteral("reading documents to split"),
            [&](const QByteArray &doc) {
                if (cancel && cancel->load()) {
                    *stopped = true;
                    return false;
                }
                ++progress->examined;
                std::optional<PendingDocument> item = pendingFor(doc, progress);
                if (!item)
                    return true;
                batch.push_back(std::move(*item));
                return batch.size() < sizer.size() || flush();
            },
            error))
        return false;
    return ok && (batch.empty() || flush());
}

// The document split as the config says, or nothing (counted as skipped, with a note).
std::optional<PendingDocument> OverflowMigrator::pendingFor(const QByteArray &doc,
                                                            MigrationProgress *progress)
{
    PendingDocument item;
    item.original = doc;
    item.idValue = idValueOf(doc);
    item.split = DocumentSplitter::split(reinterpret_cast<const std::uint8_t *>(doc.constData()),
                                         std::uint32_t(doc.size()), m_config);
    if (item.split.kind == DocumentSplitter::Result::Kind::Split)
        return item;
    ++progress->skipped;
    m_notes << QStringLiteral("%1: %2").arg(idText(item.idValue),
                                            item.split.problem.isEmpty()
                                                ? QStringLiteral("nothing to move, left as it is")
                                                : item.split.problem);
    return std::nullopt;
}

} // namespace oe
