#include "migration/OfflineSplitter.h"

#include "bson/internal/BsonRaw.h"
#include "migration/JournalEntry.h"
#include "migration/MigrationVerifier.h"
#include "migration/internal/DumpCursor.h"
#include "output/StagedOutput.h"
#include "split/DocumentSplitter.h"
#include "split/SplitPlanner.h"
#include "split/internal/OverflowMetadata.h"

#include <QDir>
#include <QFileInfo>

#include <functional>
#include <map>

namespace oe {

namespace {

bool flagged(const QByteArray &doc, const SplitConfig &config)
{
    bson_t b;
    bson_iter_t it;
    const QByteArray flag = config.flagField.toUtf8();
    return bson_init_static(&b, reinterpret_cast<const std::uint8_t *>(doc.constData()),
                            std::size_t(doc.size())) &&
           bson_iter_init_find_w_len(&it, &b, flag.constData(), int(flag.size())) &&
           BSON_ITER_HOLDS_BOOL(&it) && bson_iter_bool(&it);
}

std::string idOf(const QByteArray &doc, const char *field)
{
    bson_t b;
    bson_iter_t it;
    if (!bson_init_static(&b, reinterpret_cast<const std::uint8_t *>(doc.constData()),
                          std::size_t(doc.size())) ||
        !bson_iter_init_find(&it, &b, field))
        return {};
    return bsonraw::toDocumentId(bsonraw::valueOf(&it));
}

// The pages of one document, which the split wrote right after each other, in page order.
bool takePages(DumpCursor &overflow, QByteArray *lookahead, bool *haveLookahead,
               const std::string &id, const SplitConfig &config, std::vector<QByteArray> *pages,
               SourceError *error)
{
    const QByteArray link = config.linkField.toUtf8();
    pages->clear();
    for (;;) {
        if (!*haveLookahead) {
            *haveLookahead = overflow.next(lookahead, error);
            if (!*haveLookahead)
                return !error->isError();
        }
        if (idOf(*lookahead, link.constData()) != id)
            return true;
        pages->push_back(*lookahead);
        *haveLookahead = false;
    }
}

struct Paths
{
    QString primary, overflow, journal, overflowMetadata;
};

Paths pathsFor(const QString &dir, const SplitConfig &c)
{
    const QDir d(dir);
    return {d.filePath(c.collection + QStringLiteral(".bson")),
            d.filePath(c.overflowCollection + QStringLiteral(".bson")),
            d.filePath(c.journalCollection() + QStringLiteral(".bson")),
            d.filePath(OverflowMetadata::fileName(c))};
}

// Belt and braces behind the name checks: every output file lies directly in `dir`.
bool staysInside(const QString &dir, const Paths &paths, SourceError *error)
{
    const QString root = QDir(dir).absolutePath();
    for (const QString &p :
         {paths.primary, paths.overflow, paths.journal, paths.overflowMetadata}) {
        if (QFileInfo(p).absolutePath() != root) {
            *error = SourceError::io(
                p, QStringLiteral("would be written outside --out-dir %1").arg(dir));
            error->kind = SourceError::Kind::Usage;
            return false;
        }
    }
    return true;
}

SourceError usage(const QString &source, const QString &message)
{
    SourceError e = SourceError::io(source, message);
    e.kind = SourceError::Kind::Usage;
    return e;
}

// The run of `field` recorded in a journal file (any field's when `field` is empty).
bool journaledRun(const QString &journalPath, const QString &field, SplitConfig *config,
                  RunState *state, SourceError *error)
{
    DumpCursor cursor(journalPath);
    if (!cursor.open(error))
        return false;
    QByteArray doc;
    while (cursor.next(&doc, error)) {
        if (JournalEntry::configFromRunDocument(doc, config, state) &&
            (field.isEmpty() || config->field == field))
            return true;
    }
    return false;
}

// The run recorded in a journal file, if there is one: "field 'x' with keep 50, page size …".
QString priorRun(const QString &journalPath)
{
    SplitConfig earlier;
    RunState state = RunState::Applied;
    SourceError ignored;
    if (!QFileInfo::exists(journalPath) ||
        !journaledRun(journalPath, QString(), &earlier, &state, &ignored))
        return {};
    return QStringLiteral("field '%1' with keep %2, page size %3, overflow %4 (%5)")
        .arg(earlier.field)
        .arg(earlier.keep)
        .arg(earlier.pageSize)
        .arg(earlier.overflowCollection, journalText(state));
}

} // namespace

bool OfflineSplitter::plan(const QString &dumpPath, const SplitConfig &config, SplitPlan *plan,
                           SourceError *error, const std::atomic<bool> *cancel,
                           const SplitPlanner::RowCallback &onRow)
{
    DumpFileSource source(dumpPath);
    *plan = SplitPlanner::plan(source, config, cancel, onRow);
    if (plan->error.isError()) {
        *error = plan->error;
        return false;
    }
    if (plan->cancelled)
        return false;
    if (plan->documents > 0 && plan->withField == 0) {
        *error = usage(
            dumpPath,
            QStringLiteral("no document has a field '%1'; nothing written").arg(config.field));
        return false;
    }
    if (plan->withField > 0 && plan->skippedDocuments == plan->withField) {
        // Drift is a few documents; a field that is never an array is the wrong field.
        *error = SourceError::io(
            dumpPath, QStringLiteral("field '%1' is not an array in any of the %2 document(s) "
                                     "that have it (first: %3); nothing written")
                          .arg(config.field)
                          .arg(plan->withField)
                          .arg(plan->skipped.value(0)));
        error->kind = SourceError::Kind::InvalidData;
        return false;
    }
    if (plan->alreadySplit > 0) {
        const QString earlier =
            priorRun(pathsFor(QFileInfo(dumpPath).absolutePath(), config).journal);
        *error = usage(
            dumpPath,
            QStringLiteral("%1 document(s) already have %2: true (first: %3): this dump is the "
                           "output of an earlier split%4, whose pages another split would "
                           "lose; roll that back first, or split the original dump; nothing "
                           "written")
                .arg(plan->alreadySplit)
                .arg(config.flagField, plan->firstAlreadySplit,
                     earlier.isEmpty() ? QString() : QStringLiteral(" (") + earlier + u')'));
        return false;
    }
    if (plan->invalidDocuments > 0) {
        error->kind = SourceError::Kind::InvalidData;
        error->source = dumpPath;
        error->message =
            QStringLiteral("%1 document(s) cannot be split%2, nothing written; first: %3")
                .arg(plan->invalidDocuments)
                .arg(config.strict ? QStringLiteral(" (--strict)") : QString(),
                     plan->problems.value(0));
        return false;
    }
    return true;
}

bool OfflineSplitter::journaledConfig(const QString &splitDump, const QString &field,
                                      SplitConfig *config, RunState *state, SourceError *error)
{
    SplitConfig probe;
    probe.collection = collectionOf(splitDump);
    const QString journal = pathsFor(QFileInfo(splitDump).absolutePath(), probe).journal;
    if (!journaledRun(journal, field, config, state, error)) {
        if (!error->isError())
            *error =
                usage(journal, QStringLiteral("no split of field '%1' in this journal").arg(field));
        return false;
    }
    config->collection = probe.collection; // the files may have been renamed with the folder
    return true;
}

namespace {

JournalEntry journalEntryFor(const SplitConfig &config, const DocumentSplitter::Result &r)
{
    JournalEntry entry;
    entry.run = config.field;
    entry.rawId = r.rawId;
    entry.length = r.length;
    entry.digest = r.digest;
    entry.originalFlag = r.originalFlag;
    entry.originalCount = r.originalCount;
    entry.originalPages = r.originalPages;
    entry.state = EntryState::Split;
    return entry;
}

// The second pass: every file staged, renamed into place only when all were written.
bool writeSplit(const QString &dumpPath, const Paths &paths, const SplitConfig &config,
                QStringList *written, SourceError *error)
{
    StagedOutput output; // the primary last: its appearance says the split is complete
    QIODevice *overflow = output.add(paths.overflow, error);
    // mongorestore creates the overflow's unique {link, page} index from this file.
    QIODevice *metadata = overflow ? output.add(paths.overflowMetadata, error) : nullptr;
    QIODevice *journal = metadata ? output.add(paths.journal, error) : nullptr;
    QIODevice *primary = journal ? output.add(paths.primary, error) : nullptr;
    if (primary && !output.write(metadata, OverflowMetadata::json(config), error))
        return false;
    DumpCursor in(dumpPath);
    if (!primary || !in.open(error))
        return false;
    QByteArray doc;
    while (in.next(&doc, error)) {
        const auto r =
            DocumentSplitter::split(reinterpret_cast<const std::uint8_t *>(doc.constData()),
                                    std::uint32_t(doc.size()), config);
        if (r.kind != DocumentSplitter::Result::Kind::Split) {
            if (!output.write(primary, doc, error)) // byte-identical
                return false;
            continue;
        }
        if (!output.write(primary, r.primary, error))
            return false;
        for (const auto &page : r.pages)
            if (!output.write(overflow, page, error))
                return false;
        if (!output.write(journal, journalEntryFor(config, r).toBson(), error))
            return false;
    }
    if (error->isError())
        return false;
    return output.write(journal, JournalEntry::runDocument(config, RunState::Applied), error) &&
           output.commit(written, error);
}

} // namespace

QString OfflineSplitter::collectionOf(const QString &dumpPath)
{
    QString name = QFileInfo(dumpPath).fileName();
    for (const QString &suffix : {QStringLiteral(".gz"), QStringLiteral(".bson")})
        if (name.endsWith(suffix))
            name.chop(suffix.size());
    return name;
}

bool OfflineSplitter::split(const QString &dumpPath, const QString &outDir,
                            const SplitConfig &configIn, SplitPlan *plan, QStringList *written,
                            SourceError *error, const std::atomic<bool> *cancel)
{
    const SplitConfig config = configIn.withDefaults();
    const Paths out = pathsFor(outDir, config);
    if (!staysInside(outDir, out, error))
        return false;
    for (const QString &p : {out.primary, out.overflow, out.journal, out.overflowMetadata}) {
        if (QFileInfo(p).canonicalFilePath() == QFileInfo(dumpPath).canonicalFilePath()) {
            *error = usage(dumpPath, QStringLiteral("the output would replace the input; choose "
                                                    "another --out-dir"));
            return false;
        }
    }
    if (!OfflineSplitter::plan(dumpPath, config, plan, error, cancel))
        return false;
    if (!QDir().mkpath(outDir)) {
        *error = SourceError::io(outDir, QStringLiteral("cannot create the output directory"));
        return false;
    }
    return writeSplit(dumpPath, out, config, written, error);
}

namespace {

// Walks the split dump with its overflow and journal files, calling `visit` for each
// journaled document with its primary and pages.
template <typename Visit>
bool walkSplit(const QString &splitDump, const SplitConfig &config, VerifyReport *report,
               SourceError *error, const Visit &visit,
               const std::function<bool(const QByteArray &)> &passThrough)
{
    const QString dir = QFileInfo(splitDump).absolutePath();
    const Paths paths = pathsFor(dir, config);
    std::map<std::string, JournalEntry> journal;
    {
        DumpCursor j(paths.journal);
        if (!j.open(error))
            return false;
        QByteArray doc;
        while (j.next(&doc, error)) {
            JournalEntry e;
            if (JournalEntry::fromBson(doc, &e) && e.run == config.field)
                journal[e.rawId] = e;
        }
        if (error->isError())
            return false;
    }
    DumpCursor primaries(splitDump), overflow(paths.overflow);
    if (!primaries.open(error) || !overflow.open(error))
        return false;
    QByteArray doc, lookahead;
    bool haveLookahead = false;
    std::vector<QByteArray> pages;
    while (primaries.next(&doc, error)) {
        const std::string id = idOf(doc, "_id");
        const auto it = journal.find(id);
        if (it == journal.end()) {
            if (flagged(doc, config))
                report->mismatch(QStringLiteral("%1: flagged but not in the journal")
                                     .arg(DocumentId::toRelaxedJson(id)));
            if (!passThrough(doc))
                return false;
            continue;
        }
        if (!takePages(overflow, &lookahead, &haveLookahead, id, config, &pages, error))
            return false;
        ++report->checked;
        if (!visit(doc, pages, it->second))
            return false;
        journal.erase(it);
    }
    if (error->isError())
        return false;
    for (const auto &[id, entry] : journal)
        report->mismatch(QStringLiteral("%1: in the journal but not in %2")
                             .arg(DocumentId::toRelaxedJson(id), splitDump));
    return true;
}

} // namespace

bool OfflineSplitter::verify(const QString &splitDump, const SplitConfig &configIn,
                             VerifyReport *report, SourceError *error)
{
    const SplitConfig config = configIn.withDefaults();
    return walkSplit(
        splitDump, config, report, error,
        [&](const QByteArray &primary, const std::vector<QByteArray> &pages,
            const JournalEntry &entry) {
            MigrationVerifier::check(primary, pages, entry, config, report);
            return true;
        },
        [](const QByteArray &) { return true; });
}

bool OfflineSplitter::rollback(const QString &splitDump, const QString &outDir,
                               const SplitConfig &configIn, VerifyReport *report,
                               QStringList *written, SourceError *error)
{
    const SplitConfig config = configIn.withDefaults();
    const QString target = QDir(outDir).filePath(config.collection + QStringLiteral(".bson"));
    if (QFileInfo(target).canonicalFilePath() == QFileInfo(splitDump).canonicalFilePath()) {
        *error = usage(splitDump, QStringLiteral("the output would replace the input; choose "
                                                 "another --out-dir"));
        return false;
    }
    if (!QDir().mkpath(outDir)) {
        *error = SourceError::io(outDir, QStringLiteral("cannot create the output directory"));
        return false;
    }
    StagedOutput output;
    QIODevice *out = output.add(target, error);
    if (!out)
        return false;
    bool ok = walkSplit(
        splitDump, config, report, error,
        [&](const QByteArray &primary, const std::vector<QByteArray> &pages,
            const JournalEntry &entry) {
            if (!MigrationVerifier::check(primary, pages, entry, config, report))
                return false; // never write back something that does not match its journal
            QByteArray original;
            QString problem;
            if (!DocumentSplitter::reassemble(primary, pages, config, entry.originalFlag,
                                              entry.originalCount, entry.originalPages, &original,
                                              &problem)) {
                report->mismatch(
                    QStringLiteral("%1: %2").arg(DocumentId::toRelaxedJson(entry.rawId), problem));
                return false;
            }
            return output.write(out, original, error);
        },
        [&](const QByteArray &doc) { return output.write(out, doc, error); });
    if (!ok || !report->ok()) {
        if (!error->isError()) {
            error->kind = SourceError::Kind::InvalidData;
            error->source = splitDump;
            error->message = QStringLiteral("rollback stopped, nothing written: %1")
                                 .arg(report->details.value(0));
        }
        return false;
    }
    return output.commit(written, error);
}

} // namespace oe
