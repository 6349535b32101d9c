#include "OfflineSplitter.h"

#include "BsonRaw.h"
#include "DocumentSplitter.h"
#include "DumpFileSource.h"
#include "JournalEntry.h"
#include "MigrationVerifier.h"
#include "SplitPlanner.h"

#include <QDir>
#include <QFileInfo>
#include <QSaveFile>

#include <functional>
#include <map>

namespace oe {

namespace {

// Reads whole documents of a dump one at a time (with one document of look-ahead).
class DumpCursor
{
public:
    explicit DumpCursor(const QString &path) : m_source(path) {}
    bool open(SourceError *error) { return m_source.open(error); }
    // Next document, or false at the end (error set if the file is faulty).
    bool next(QByteArray *doc, SourceError *error)
    {
        while (m_at >= m_batch.documents.size()) {
            if (m_done)
                return false;
            const auto status = m_source.read(m_batch, 1u << 20, error);
            m_at = 0;
            if (status == DocumentSource::ReadResult::Error) {
                m_done = true;
                if (m_batch.documents.empty())
                    return false;
            } else if (status == DocumentSource::ReadResult::End) {
                m_done = true;
                return false;
            }
        }
        const auto &e = m_batch.documents[m_at++];
        *doc = QByteArray(reinterpret_cast<const char *>(m_batch.data(e)), qsizetype(e.length));
        return true;
    }

private:
    DumpFileSource m_source;
    DocumentBatch m_batch;
    std::size_t m_at = 0;
    bool m_done = false;
};

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
    QString primary, overflow, journal;
};

Paths pathsFor(const QString &dir, const SplitConfig &c)
{
    const QDir d(dir);
    return {d.filePath(c.collection + QStringLiteral(".bson")),
            d.filePath(c.overflowCollection + QStringLiteral(".bson")),
            d.filePath(c.journalCollection() + QStringLiteral(".bson"))};
}

bool writeAll(QSaveFile &file, const QByteArray &bytes)
{
    return file.write(bytes) == bytes.size();
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
    if (QFileInfo(out.primary).canonicalFilePath() == QFileInfo(dumpPath).canonicalFilePath()) {
        *error = SourceError::io(
            dumpPath,
            QStringLiteral("the output would replace the input; choose another --out-dir"));
        error->kind = SourceError::Kind::Usage;
        return false;
    }
    // First pass: every document must be splittable, or nothing is written.
    DumpFileSource check(dumpPath);
    *plan = SplitPlanner::plan(check, config, cancel);
    if (plan->error.isError()) {
        *error = plan->error;
        return false;
    }
    if (plan->invalidDocuments > 0) {
        error->kind = SourceError::Kind::InvalidData;
        error->source = dumpPath;
        error->message =
            QStringLiteral("%1 document(s) cannot be split, nothing written; first: %2")
                .arg(plan->invalidDocuments)
                .arg(plan->problems.value(0));
        return false;
    }
    if (plan->cancelled)
        return false;
    if (!QDir().mkpath(outDir)) {
        *error = SourceError::io(outDir, QStringLiteral("cannot create the output directory"));
        return false;
    }
    QSaveFile primary(out.primary), overflow(out.overflow), journal(out.journal);
    for (QSaveFile *f : {&primary, &overflow, &journal}) {
        if (!f->open(QIODevice::WriteOnly)) {
            *error = SourceError::io(f->fileName(),
                                     QStringLiteral("cannot write: %1").arg(f->errorString()));
            return false;
        }
    }
    DumpCursor in(dumpPath);
    if (!in.open(error))
        return false;
    QByteArray doc;
    bool ok = true;
    while (ok && in.next(&doc, error)) {
        const auto r =
            DocumentSplitter::split(reinterpret_cast<const std::uint8_t *>(doc.constData()),
                                    std::uint32_t(doc.size()), config);
        if (r.kind != DocumentSplitter::Result::Kind::Split) {
            ok = writeAll(primary, doc); // byte-identical
            continue;
        }
        ok = writeAll(primary, r.primary);
        for (const auto &page : r.pages)
            ok = ok && writeAll(overflow, page);
        JournalEntry entry;
        entry.run = config.field;
        entry.rawId = r.rawId;
        entry.length = r.length;
        entry.digest = r.digest;
        entry.originalFlag = r.originalFlag;
        entry.originalCount = r.originalCount;
        entry.originalPages = r.originalPages;
        entry.state = QStringLiteral("split");
        ok = ok && writeAll(journal, entry.toBson());
    }
    if (error->isError())
        return false;
    ok = ok && writeAll(journal, JournalEntry::runDocument(config, QStringLiteral("applied")));
    for (QSaveFile *f : {&primary, &overflow, &journal}) {
        if (!ok || !f->commit()) {
            *error = SourceError::io(f->fileName(),
                                     QStringLiteral("cannot write: %1").arg(f->errorString()));
            return false;
        }
        *written << f->fileName();
    }
    return true;
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
        *error = SourceError::io(
            splitDump,
            QStringLiteral("the output would replace the input; choose another --out-dir"));
        error->kind = SourceError::Kind::Usage;
        return false;
    }
    if (!QDir().mkpath(outDir)) {
        *error = SourceError::io(outDir, QStringLiteral("cannot create the output directory"));
        return false;
    }
    QSaveFile out(target);
    if (!out.open(QIODevice::WriteOnly)) {
        *error = SourceError::io(target, QStringLiteral("cannot write: %1").arg(out.errorString()));
        return false;
    }
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
            return writeAll(out, original);
        },
        [&](const QByteArray &doc) { return writeAll(out, doc); });
    if (!ok || !report->ok()) {
        if (!error->isError()) {
            error->kind = SourceError::Kind::InvalidData;
            error->source = splitDump;
            error->message = QStringLiteral("rollback stopped, nothing written: %1")
                                 .arg(report->details.value(0));
        }
        return false;
    }
    if (!out.commit()) {
        *error = SourceError::io(target, QStringLiteral("cannot write: %1").arg(out.errorString()));
        return false;
    }
    *written << target;
    return true;
}

} // namespace oe
