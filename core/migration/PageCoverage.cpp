#include "migration/internal/PageCoverage.h"

#include "bson/internal/BsonRaw.h"
#include "split/DocumentSplitter.h"

namespace oe {

namespace {

// The elements (raw values) of the array whose raw value is `array`; false if not an array.
bool elementsOf(const QByteArray &array, std::vector<QByteArray> *out)
{
    if (array.size() < 6 || array.front() != char(BSON_TYPE_ARRAY))
        return false;
    bson_t doc;
    bson_iter_t it;
    if (!bson_init_static(&doc, reinterpret_cast<const std::uint8_t *>(array.constData() + 1),
                          std::size_t(array.size() - 1)) ||
        !bson_iter_init(&it, &doc))
        return false;
    while (bson_iter_next(&it))
        out->push_back(bsonraw::valueOf(&it));
    return true;
}

} // namespace

PageCoverage::Result PageCoverage::assess(const QByteArray &document,
                                          const std::vector<QByteArray> &pagesInOrder,
                                          const JournalEntry &entry, const SplitConfig &config)
{
    Result r;
    std::vector<QByteArray> pageItems;
    for (const QByteArray &page : pagesInOrder)
        elementsOf(DocumentSplitter::fieldValue(page, config.itemsField), &pageItems);
    r.pageItems = pageItems.size();
    if (pagesInOrder.empty()) {
        r.verdict = Verdict::NoPages;
        return r;
    }
    if (document.isEmpty()) {
        r.verdict = Verdict::Deleted;
        return r;
    }
    std::vector<QByteArray> elements;
    QByteArray digest;
    std::uint64_t total = 0;
    QString problem;
    if (!elementsOf(DocumentSplitter::fieldValue(document, config.field), &elements) ||
        elements.size() < entry.length ||
        !DocumentSplitter::concatenatedDigest(document, {}, config, entry.length, &digest, &total,
                                              &problem) ||
        digest != entry.digest) {
        r.why = QStringLiteral("its array no longer starts with the %1 element(s) it had when it "
                               "was split")
                    .arg(entry.length);
        return r;
    }
    const std::size_t keep = std::size_t(config.keep);
    std::size_t held = 0; // page items the document holds, in order, from position keep on
    while (held < pageItems.size() && keep + held < elements.size() &&
           elements[keep + held] == pageItems[held])
        ++held;
    if (held == pageItems.size()) {
        r.verdict = Verdict::Covered;
        return r;
    }
    if (keep + held == elements.size() && keep + held >= entry.length) {
        r.verdict = Verdict::TailMissing;
        r.missing.assign(pageItems.begin() + std::ptrdiff_t(held), pageItems.end());
        return r;
    }
    r.why = QStringLiteral("its array holds %1 of its pages' %2 item(s) in place")
                .arg(held)
                .arg(pageItems.size());
    return r;
}

} // namespace oe
