#include "split/SplitPlanner.h"

#include "analysis/internal/DocumentValidator.h"
#include "bson/DocumentId.h"
#include "split/DocumentSplitter.h"
#include "split/internal/DuplicateIds.h"

#include <algorithm>
#include <optional>

#include <QElapsedTimer>

namespace oe {

namespace {

QString describe(const DocumentBatch::Entry &entry, const DocumentSplitter::Result &r)
{
    return QStringLiteral("document %1 (_id %2): %3")
        .arg(entry.index)
        .arg(r.rawId.empty() ? QStringLiteral("none") : DocumentId::toRelaxedJson(r.rawId),
             r.problem);
}

void note(QStringList &list, const QString &line)
{
    if (list.size() < SplitPlanner::kProblemsKept)
        list << line;
}

// Every document the split would write goes through analyze's validation too.
bool outputIsValid(DocumentValidator &validator, const DocumentSplitter::Result &r,
                   const QString &source, std::int64_t index, SourceError *error)
{
    const auto check = [&](const QByteArray &doc) {
        return validator.check(reinterpret_cast<const std::uint8_t *>(doc.constData()),
                               std::uint32_t(doc.size()), source, index, -1, error);
    };
    return check(r.primary) && std::all_of(r.pages.begin(), r.pages.end(), check);
}

void addSplit(SplitPlan &plan, const DocumentBatch::Entry &entry, const DocumentSplitter::Result &r,
              const SplitPlanner::RowCallback &onRow)
{
    ++plan.affected;
    plan.elementsMoved += r.movedElements;
    plan.bytesMoved += r.movedBytes;
    plan.overflowDocuments += r.pages.size();
    const auto after = std::uint64_t(r.primary.size());
    plan.sizesAfter.add(after);
    if (after > plan.largestPrimaryAfter) {
        plan.largestPrimaryAfter = after;
        plan.largestPrimaryId = r.rawId;
    }
    for (const auto &page : r.pages)
        plan.largestPageBytes =
            std::max<std::uint64_t>(plan.largestPageBytes, std::uint64_t(page.size()));
    if (onRow)
        onRow({DocumentId::toRelaxedJson(r.rawId), entry.length, after, r.length,
               r.length - r.movedElements, r.movedElements, r.pages.size()});
}

} // namespace

bool SplitPlanner::addDocument(SplitPlan &plan, DocumentValidator &validator, DuplicateIds *ids,
                               const QString &source, const DocumentBatch &batch,
                               const DocumentBatch::Entry &entry, const SplitConfig &config,
                               const RowCallback &onRow)
{
    if (!validator.check(batch.data(entry), entry.length, source, std::int64_t(entry.index),
                         std::int64_t(entry.sourceOffset), &plan.error))
        return false;
    const auto r = DocumentSplitter::split(batch.data(entry), entry.length, config);
    if (ids && !r.rawId.empty())
        ids->add(r.rawId, entry.index);
    ++plan.documents;
    plan.sizesBefore.add(entry.length);
    plan.withField += r.hasField;
    using Kind = DocumentSplitter::Result::Kind;
    if (r.kind == Kind::Invalid || (r.kind == Kind::Skipped && config.strict)) {
        ++plan.invalidDocuments;
        note(plan.problems, describe(entry, r));
    } else if (r.kind == Kind::Skipped) {
        ++plan.skippedDocuments;
        note(plan.skipped, describe(entry, r));
    } else if (r.kind == Kind::Unaffected && r.alreadySplit) {
        if (plan.alreadySplit++ == 0)
            plan.firstAlreadySplit = describe(entry, r).chopped(2); // no ": " and no problem
    }
    if (r.kind != Kind::Split) {
        plan.sizesAfter.add(entry.length);
        return true;
    }
    if (!outputIsValid(validator, r, source, std::int64_t(entry.index), &plan.error))
        return false;
    addSplit(plan, entry, r, onRow);
    return true;
}

SplitPlan SplitPlanner::plan(DocumentSource &source, const SplitConfig &configIn,
                             const std::atomic<bool> *cancel, const RowCallback &onRow,
                             const Progress &progress)
{
    const SplitConfig config = configIn.withDefaults();
    SplitPlan plan;
    source.setCancelFlag(cancel);
    if (!source.open(&plan.error))
        return plan;
    DocumentValidator validator;
    std::optional<DuplicateIds> ids;
    if (!source.guaranteesUniqueIds())
        ids.emplace();
    const QString name = source.displayName();
    QElapsedTimer clock;
    clock.start();
    DocumentBatch batch;
    for (;;) {
        if (cancel && cancel->load()) {
            plan.cancelled = true;
            break;
        }
        SourceError error;
        const auto status = source.read(batch, 1u << 20, &error);
        for (const auto &entry : batch.documents)
            if (!addDocument(plan, validator, ids ? &*ids : nullptr, name, batch, entry, config,
                             onRow))
                return plan;
        if (progress && clock.elapsed() > 100) {
            progress(plan);
            clock.restart();
        }
        if (status == DocumentSource::ReadResult::Error) {
            plan.error = error;
            break;
        }
        if (status == DocumentSource::ReadResult::End)
            break;
    }
    if (ids && !plan.error.isError() && !plan.cancelled)
        if (const auto repeat = ids->firstRepeat()) {
            plan.error.kind = SourceError::Kind::InvalidData;
            plan.error.source = name;
            plan.error.docIndex = std::int64_t(repeat->second);
            plan.error.message =
                QStringLiteral("repeats the _id of document #%1: each _id may appear once (was "
                               "the dump concatenated?)")
                    .arg(repeat->first);
        }
    if (progress)
        progress(plan);
    return plan;
}

DocumentPreview SplitPlanner::preview(const QByteArray &document, const SplitConfig &configIn)
{
    const SplitConfig config = configIn.withDefaults();
    DocumentPreview p;
    p.sizeBefore = std::uint64_t(document.size());
    p.beforeJson = DocumentId::documentToRelaxedJson(
        reinterpret_cast<const std::uint8_t *>(document.constData()), std::size_t(document.size()));
    const auto r =
        DocumentSplitter::split(reinterpret_cast<const std::uint8_t *>(document.constData()),
                                std::uint32_t(document.size()), config);
    if (r.kind == DocumentSplitter::Result::Kind::Invalid) {
        p.problem = r.problem;
        return p;
    }
    if (r.kind != DocumentSplitter::Result::Kind::Split) {
        p.primaryJson = p.beforeJson;
        p.primarySize = p.sizeBefore;
        return p;
    }
    p.affected = true;
    p.primaryJson = DocumentId::documentToRelaxedJson(
        reinterpret_cast<const std::uint8_t *>(r.primary.constData()),
        std::size_t(r.primary.size()));
    p.primarySize = std::uint64_t(r.primary.size());
    for (const auto &page : r.pages) {
        p.pageJson << DocumentId::documentToRelaxedJson(
            reinterpret_cast<const std::uint8_t *>(page.constData()), std::size_t(page.size()));
        p.pageSizes << std::uint64_t(page.size());
    }
    return p;
}

} // namespace oe
