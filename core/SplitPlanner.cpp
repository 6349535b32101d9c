#include "SplitPlanner.h"

#include "DocumentId.h"
#include "DocumentSplitter.h"

#include <QElapsedTimer>

namespace oe {

SplitPlan SplitPlanner::plan(DocumentSource &source, const SplitConfig &configIn,
                             const std::atomic<bool> *cancel, const RowCallback &onRow,
                             const Progress &progress)
{
    const SplitConfig config = configIn.withDefaults();
    SplitPlan plan;
    source.setCancelFlag(cancel);
    if (!source.open(&plan.error))
        return plan;
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
        for (const auto &entry : batch.documents) {
            const auto r = DocumentSplitter::split(batch.data(entry), entry.length, config);
            ++plan.documents;
            plan.sizesBefore.add(entry.length);
            switch (r.kind) {
            case DocumentSplitter::Result::Kind::Invalid:
                ++plan.invalidDocuments;
                if (plan.problems.size() < kProblemsKept)
                    plan.problems << QStringLiteral("document %1 (_id %2): %3")
                                         .arg(entry.index)
                                         .arg(r.rawId.empty() ? QStringLiteral("none")
                                                              : DocumentId::toRelaxedJson(r.rawId),
                                              r.problem);
                plan.sizesAfter.add(entry.length);
                break;
            case DocumentSplitter::Result::Kind::Unaffected:
                plan.alreadySplit += r.alreadySplit;
                plan.sizesAfter.add(entry.length);
                break;
            case DocumentSplitter::Result::Kind::Split: {
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
                break;
            }
            }
        }
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
    if (progress)
        progress(plan);
    return plan;
}

DocumentPreview SplitPlanner::preview(const QByteArray &document, const SplitConfig &configIn)
{
    const SplitConfig config = configIn.withDefaults();
    DocumentPreview p;
    p.sizeBefore = std::uint64_t(document.size());
    const auto r =
        DocumentSplitter::split(reinterpret_cast<const std::uint8_t *>(document.constData()),
                                std::uint32_t(document.size()), config);
    if (r.kind == DocumentSplitter::Result::Kind::Invalid) {
        p.problem = r.problem;
        return p;
    }
    if (r.kind == DocumentSplitter::Result::Kind::Unaffected) {
        p.primaryJson = DocumentId::documentToRelaxedJson(
            reinterpret_cast<const std::uint8_t *>(document.constData()),
            std::size_t(document.size()));
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
