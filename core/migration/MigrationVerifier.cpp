#include "migration/MigrationVerifier.h"

#include "migration/JournalEntry.h"
#include "migration/internal/MigrationQueries.h"
#include "mongo/internal/CollectionOps.h"
#include "split/DocumentSplitter.h"

#include <QElapsedTimer>

#include <algorithm>
#include <optional>

namespace oe {

bool MigrationVerifier::forEachEntryBatch(
    MongoConnection &connection, const QString &database, const SplitConfig &config,
    const std::vector<EntryState> &states, BatchSizer &sizer,
    const std::function<bool(std::vector<JournalEntry> &)> &visit, SourceError *error)
{
    CollectionOps journal(connection, database, config.journalCollection());
    std::vector<JournalEntry> entries;
    bool ok = true;
    // Every entry of the run, whatever its state: one this version cannot read means the
    // journal was damaged, and nothing is done from a damaged journal.
    const QByteArray filter = migration::build([&](bson_t *d) {
        BSON_APPEND_UTF8(d, "kind", "document");
        migration::appendUtf8(d, QStringLiteral("run"), config.field);
    });
    // Collect first, then visit: the visitor rewrites journal entries.
    std::vector<JournalEntry> all;
    QString damaged;
    std::uint64_t total = 0;
    if (!journal.find(
            filter, {}, QStringLiteral("reading the journal"),
            [&](const QByteArray &doc) {
                JournalEntry e;
                ++total;
                if (!JournalEntry::fromBson(doc, &e)) {
                    damaged =
                        QStringLiteral("entry %1 cannot be read (its state is '%2')")
                            .arg(DocumentId::toRelaxedJson(bsonraw::toDocumentId(
                                     DocumentSplitter::fieldValue(doc, QStringLiteral("doc")))),
                                 JournalEntry::stateWordOf(doc));
                    return false;
                }
                if (std::find(states.begin(), states.end(), e.state) != states.end())
                    all.push_back(std::move(e));
                return true;
            },
            error))
        return false;
    if (damaged.isEmpty())
        damaged = missingEntries(connection, database, config, total, error);
    if (error->isError())
        return false;
    if (!damaged.isEmpty()) {
        error->kind = SourceError::Kind::InvalidData;
        error->message = QStringLiteral("the migration journal %1.%2 is damaged: %3; nothing "
                                        "was changed")
                             .arg(database, config.journalCollection(), damaged);
        return false;
    }
    // Shortest arrays first. Order does not matter for correctness, but a rollback restores
    // documents to their full size, and a server that rewrites a document by scanning its
    // whole table (FerretDB's SQLite backend) pays for every restored byte in each later write:
    // a viral post restored first made each of the next 800 write-backs take 2 s instead of
    // 0.03 s.
    std::stable_sort(all.begin(), all.end(), [](const JournalEntry &a, const JournalEntry &b) {
        return a.length < b.length;
    });
    for (std::size_t i = 0; i < all.size() && ok;) {
        const std::size_t end = std::min(all.size(), i + sizer.size());
        entries.assign(all.begin() + std::ptrdiff_t(i), all.begin() + std::ptrdiff_t(end));
        QElapsedTimer took;
        took.start();
        ok = visit(entries);
        sizer.took(double(took.nsecsElapsed()) / 1e9);
        i = end;
    }
    return ok;
}

bool MigrationVerifier::readRunDocument(MongoConnection &connection, const QString &database,
                                        const SplitConfig &config, QByteArray *document,
                                        SourceError *error)
{
    CollectionOps journal(connection, database, config.journalCollection());
    document->clear();
    return journal.find(
        migration::runDocumentId(config.field), {}, QStringLiteral("reading the migration journal"),
        [&](const QByteArray &doc) {
            *document = doc;
            return false;
        },
        error);
}

// The run's entries were counted when it finished applying: fewer now means some were deleted
// (their documents could then be neither verified nor rolled back). Empty when all are there.
QString MigrationVerifier::missingEntries(MongoConnection &connection, const QString &database,
                                          const SplitConfig &config, std::uint64_t found,
                                          SourceError *error)
{
    QByteArray run;
    if (!readRunDocument(connection, database, config, &run, error))
        return {};
    const std::optional<std::uint64_t> recorded = JournalEntry::recordedDocuments(run);
    if (!recorded || found >= *recorded)
        return {};
    return QStringLiteral("it holds %1 document entries of the %2 the run recorded")
        .arg(found)
        .arg(*recorded);
}

bool MigrationVerifier::journaledConfig(MongoConnection &connection, const QString &database,
                                        const QString &collection, const QString &field,
                                        SplitConfig *config, RunState *state, SourceError *error)
{
    SplitConfig probe;
    probe.collection = collection;
    CollectionOps journal(connection, database, probe.journalCollection());
    bool found = false;
    QString problem;
    journal.find(
        migration::runDocumentId(field), {}, QStringLiteral("reading the migration journal"),
        [&](const QByteArray &doc) {
            found = JournalEntry::configFromRunDocument(doc, config, state, &problem);
            return false;
        },
        error);
    if (!error->isError() && !problem.isEmpty()) {
        error->kind = SourceError::Kind::InvalidData;
        error->message = QStringLiteral("the migration journal %1.%2 is damaged: run '%3': %4")
                             .arg(database, probe.journalCollection(), field, problem);
    }
    return found && !error->isError();
}

bool MigrationVerifier::load(MongoConnection &connection, const QString &database,
                             const SplitConfig &config, const std::vector<JournalEntry> &entries,
                             Loaded *loaded, SourceError *error)
{
    CollectionOps source(connection, database, config.collection);
    CollectionOps overflow(connection, database, config.overflowCollection);
    std::vector<QByteArray> ids;
    for (const auto &e : entries)
        ids.push_back(bsonraw::fromDocumentId(e.rawId));
    loaded->primaries.clear();
    loaded->pages.clear();
    if (!source.find(
            migration::build(
                [&](bson_t *d) { migration::appendIn(d, QStringLiteral("_id"), ids); }),
            {}, QStringLiteral("reading migrated documents"),
            [&](const QByteArray &doc) {
                loaded->primaries[DocumentSplitter::fieldValue(doc, QStringLiteral("_id"))] = doc;
                return true;
            },
            error))
        return false;
    const QByteArray sort = migration::build([&](bson_t *d) {
        bson_t s;
        BSON_APPEND_DOCUMENT_BEGIN(d, "sort", &s);
        const QByteArray page = config.pageField.toUtf8();
        bson_append_int32(&s, page.constData(), int(page.size()), 1);
        bson_append_document_end(d, &s);
    });
    return overflow.find(
        migration::build([&](bson_t *d) { migration::appendIn(d, config.linkField, ids); }), sort,
        QStringLiteral("reading overflow pages"),
        [&](const QByteArray &page) {
            loaded->pages[DocumentSplitter::fieldValue(page, config.linkField)].push_back(page);
            return true;
        },
        error);
}

bool MigrationVerifier::check(const QByteArray &primary, const std::vector<QByteArray> &pages,
                              const JournalEntry &entry, const SplitConfig &config,
                              VerifyReport *report)
{
    const QString id = DocumentId::toRelaxedJson(entry.rawId);
    if (primary.isEmpty()) {
        report->mismatch(QStringLiteral("%1: the document is gone").arg(id));
        return false;
    }
    if (DocumentSplitter::fieldValue(primary, config.flagField) != migration::rawTrue()) {
        report->mismatch(QStringLiteral("%1: not flagged (%2)").arg(id, config.flagField));
        return false;
    }
    for (std::size_t k = 0; k < pages.size(); ++k) {
        bson_t page;
        bson_iter_t it;
        const QByteArray key = config.pageField.toUtf8();
        if (!CollectionOps::view(pages[k], &page) ||
            !bson_iter_init_find_w_len(&it, &page, key.constData(), int(key.size())) ||
            !BSON_ITER_HOLDS_NUMBER(&it) || bson_iter_as_int64(&it) != std::int64_t(k)) {
            report->mismatch(
                QStringLiteral("%1: overflow pages are not numbered 0..%2 without gaps")
                    .arg(id)
                    .arg(pages.size() - 1));
            return false;
        }
    }
    QByteArray digest;
    std::uint64_t total = 0;
    QString problem;
    if (!DocumentSplitter::concatenatedDigest(primary, pages, config, entry.length, &digest, &total,
                                              &problem)) {
        report->mismatch(QStringLiteral("%1: %2").arg(id, problem));
        return false;
    }
    if (total < entry.length) {
        report->mismatch(QStringLiteral("%1: %2 elements, the journal recorded %3")
                             .arg(id)
                             .arg(total)
                             .arg(entry.length));
        return false;
    }
    if (digest != entry.digest) {
        report->mismatch(QStringLiteral("%1: the first %2 elements differ from the original array")
                             .arg(id)
                             .arg(entry.length));
        return false;
    }
    if (!config.countField.isEmpty()) {
        bson_t doc;
        bson_iter_t it;
        const QByteArray key = config.countField.toUtf8();
        if (!CollectionOps::view(primary, &doc) ||
            !bson_iter_init_find_w_len(&it, &doc, key.constData(), int(key.size())) ||
            !BSON_ITER_HOLDS_NUMBER(&it) || std::uint64_t(bson_iter_as_int64(&it)) != total) {
            report->mismatch(QStringLiteral("%1: %2 does not equal the %3 elements stored")
                                 .arg(id, config.countField)
                                 .arg(total));
            return false;
        }
    }
    report->appended += total - entry.length;
    ++report->matching;
    return true;
}

bool MigrationVerifier::verify(MongoConnection &connection, const QString &database,
                               const SplitConfig &configIn, VerifyReport *report,
                               SourceError *error)
{
    const SplitConfig config = configIn.withDefaults();
    std::uint64_t journaled = 0;
    BatchSizer sizer(200);
    const bool ok = forEachEntryBatch(
        connection, database, config, {EntryState::Split, EntryState::Pending}, sizer,
        [&](std::vector<JournalEntry> &entries) {
            Loaded loaded;
            if (!load(connection, database, config, entries, &loaded, error))
                return false;
            for (const JournalEntry &e : entries) {
                ++report->checked;
                if (e.state == EntryState::Pending) {
                    report->mismatch(QStringLiteral("%1: unfinished (run split again to resume)")
                                         .arg(DocumentId::toRelaxedJson(e.rawId)));
                    continue;
                }
                ++journaled;
                const QByteArray id = bsonraw::fromDocumentId(e.rawId);
                const auto p = loaded.primaries.find(id);
                const auto pages = loaded.pages.find(id);
                check(p == loaded.primaries.end() ? QByteArray() : p->second,
                      pages == loaded.pages.end() ? std::vector<QByteArray>() : pages->second, e,
                      config, report);
            }
            return true;
        },
        error);
    if (!ok)
        return false;
    CollectionOps source(connection, database, config.collection);
    const QByteArray flagged = migration::build([&](bson_t *d) {
        const QByteArray flag = config.flagField.toUtf8();
        bson_append_bool(d, flag.constData(), int(flag.size()), true);
    });
    const std::int64_t n =
        source.count(flagged, QStringLiteral("counting flagged documents"), error);
    if (n < 0)
        return false;
    if (std::uint64_t(n) > journaled)
        report->mismatch(QStringLiteral("%1 flagged document(s) have no journal entry")
                             .arg(std::uint64_t(n) - journaled));
    return true;
}

} // namespace oe
