#include "GroundTruth.h"

#include "LiveDocuments.h"

#include <bson/bson.h>

#include <algorithm>
#include <cstring>
#include <functional>

namespace fixtures {

namespace {

std::uint64_t arrayLength(const bson_iter_t *array)
{
    bson_iter_t element;
    std::uint64_t length = 0;
    if (bson_iter_recurse(array, &element))
        while (bson_iter_next(&element))
            ++length;
    return length;
}

// Calls visit(iter) for each top-level field of `document`.
template <typename Visit> void forEachField(const QByteArray &document, Visit &&visit)
{
    bson_t doc;
    bson_iter_t it;
    if (!bson_init_static(&doc, reinterpret_cast<const std::uint8_t *>(document.constData()),
                          std::size_t(document.size())) ||
        !bson_iter_init(&it, &doc))
        return;
    while (bson_iter_next(&it))
        visit(&it);
}

} // namespace

std::uint64_t CollectionTruth::minSize() const
{
    if (documents.isEmpty())
        return 0;
    std::uint64_t min = documents.first().size;
    for (const DocumentTruth &d : documents)
        min = std::min(min, d.size);
    return min;
}

std::uint64_t CollectionTruth::maxSize() const
{
    std::uint64_t max = 0;
    for (const DocumentTruth &d : documents)
        max = std::max(max, d.size);
    return max;
}

std::uint64_t CollectionTruth::totalSize() const
{
    std::uint64_t total = 0;
    for (const DocumentTruth &d : documents)
        total += d.size;
    return total;
}

QList<std::uint64_t> CollectionTruth::sizesAbove(std::uint64_t threshold) const
{
    QList<std::uint64_t> sizes;
    for (const DocumentTruth &d : documents)
        if (d.size > threshold)
            sizes << d.size;
    std::sort(sizes.begin(), sizes.end(), std::greater<>());
    return sizes;
}

std::uint64_t
CollectionTruth::documentsWithArrayAbove(const std::map<QString, std::uint64_t> &thresholds) const
{
    std::uint64_t flagged = 0;
    for (const DocumentTruth &d : documents)
        flagged += std::any_of(d.arrayLengths.begin(), d.arrayLengths.end(), [&](const auto &a) {
            const auto threshold = thresholds.find(a.first);
            return threshold != thresholds.end() && a.second > threshold->second;
        });
    return flagged;
}

CollectionTruth truthOf(const QList<QByteArray> &documents)
{
    CollectionTruth truth;
    for (const QByteArray &bytes : documents) {
        DocumentTruth doc;
        doc.size = std::uint64_t(bytes.size());
        forEachField(bytes, [&](const bson_iter_t *it) {
            const char *key = bson_iter_key(it);
            FieldTruth &field = truth.fields[QString::fromUtf8(key)];
            ++field.present;
            // rawValue: the type byte and the value; the key and its NUL lie between them.
            field.bytes += std::uint64_t(rawValue(it).size()) + std::strlen(key) + 1;
            if (!BSON_ITER_HOLDS_ARRAY(it))
                return;
            const std::uint64_t length = arrayLength(it);
            field.minLength = field.arrays ? std::min(field.minLength, length) : length;
            field.maxLength = std::max(field.maxLength, length);
            ++field.arrays;
            doc.arrayLengths[QString::fromUtf8(key)] = length;
        });
        truth.documents << doc;
    }
    return truth;
}

QList<QByteArray> documentsOf(const std::map<QByteArray, QByteArray> &byId)
{
    QList<QByteArray> documents;
    for (const auto &[id, document] : byId)
        documents << document;
    return documents;
}

std::uint64_t longestTopLevelArray(const QByteArray &document)
{
    std::uint64_t longest = 0;
    forEachField(document, [&](const bson_iter_t *it) {
        if (BSON_ITER_HOLDS_ARRAY(it))
            longest = std::max(longest, arrayLength(it));
    });
    return longest;
}

} // namespace fixtures
