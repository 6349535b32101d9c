#include "split/DocumentSplitter.h"

#include "bson/BsonTypes.h"
#include "bson/DocumentId.h"
#include "bson/internal/BsonDocument.h"
#include "bson/internal/BsonIter.h"
#include "bson/internal/BsonRaw.h"

#include <QCryptographicHash>

#include <bson/bson.h>

#include <bit>
#include <memory>
#include <string>

namespace oe {

namespace {

struct ValueSpan
{
    int type;
    const std::uint8_t *data;
    std::uint32_t length;
};

ValueSpan valueOf(const bson_iter_t *it)
{
    return {int(bson_iter_type(it)), bsoniter::container(it) + bsoniter::valueOffset(it),
            bsoniter::valueLength(it)};
}

QByteArray rawValue(const bson_iter_t *it)
{
    return bsonraw::valueOf(it);
}

bool appendRaw(bson_t *out, const QString &key, const QByteArray &raw)
{
    const QByteArray k = key.toUtf8();
    return bsonraw::append(out, k.constData(), int(k.size()), raw);
}

void appendCount(bson_t *out, const QString &key, std::uint64_t value)
{
    const QByteArray k = key.toUtf8();
    if (value <= 0x7fffffffu)
        bson_append_int32(out, k.constData(), int(k.size()), std::int32_t(value));
    else
        bson_append_int64(out, k.constData(), int(k.size()), std::int64_t(value));
}

enum class Found
{
    Missing,
    Array,
    NotArray,
    InsideArray
};

// Finds the array at `segments` from the top of `doc`; `at` is left on it.
Found locate(const bson_t *doc, const QStringList &segments, bson_iter_t *at, QString *what)
{
    bson_iter_t it;
    if (!bson_iter_init(&it, doc))
        return Found::Missing;
    for (qsizetype i = 0; i < segments.size(); ++i) {
        const QByteArray seg = segments[i].toUtf8();
        if (!bson_iter_find_w_len(&it, seg.constData(), int(seg.size())))
            return Found::Missing;
        const bson_type_t type = bson_iter_type(&it);
        const bool last = i + 1 == segments.size();
        if (last) {
            *at = it;
            if (type == BSON_TYPE_ARRAY)
                return Found::Array;
            *what = BsonTypes::name(std::countr_zero(BsonTypes::bit(type)));
            return Found::NotArray;
        }
        if (type == BSON_TYPE_ARRAY) {
            *what = segments.mid(0, i + 1).join(QLatin1Char('.'));
            return Found::InsideArray;
        }
        if (type != BSON_TYPE_DOCUMENT) {
            *what = segments.mid(0, i + 1).join(QLatin1Char('.'));
            return Found::Missing;
        }
        bson_iter_t child;
        if (!bson_iter_recurse(&it, &child))
            return Found::Missing;
        it = child;
    }
    return Found::Missing;
}

// Copies `in` into `out`, rebuilding the array at `segments[depth..]` with `fillArray`, and at
// the top level passing each field through `topLevel` (which may replace or drop it) before
// `finishTop` appends what is left to add.
const auto kNoTopLevel = [](bson_t *, const std::string_view &, const bson_iter_t *) {
    return false;
};

template <typename FillArray, typename TopLevel>
void rebuild(bson_t *out, bson_iter_t *in, const QStringList &segments, int depth,
             const FillArray &fillArray, const TopLevel &topLevel)
{
    const QByteArray seg = segments[depth].toUtf8();
    while (bson_iter_next(in)) {
        const std::string_view key = bsoniter::key(in);
        if (key == std::string_view(seg.constData(), std::size_t(seg.size()))) {
            if (depth + 1 == segments.size()) {
                bson_t array;
                bson_append_array_begin(out, key.data(), int(key.size()), &array);
                fillArray(&array);
                bson_append_array_end(out, &array);
            } else {
                bson_t sub;
                bson_iter_t child;
                bson_iter_recurse(in, &child);
                bson_append_document_begin(out, key.data(), int(key.size()), &sub);
                rebuild(&sub, &child, segments, depth + 1, fillArray, kNoTopLevel);
                bson_append_document_end(out, &sub);
            }
            continue;
        }
        if (topLevel(out, key, in))
            continue;
        bson_append_iter(out, key.data(), int(key.size()), in);
    }
}

void appendElement(bson_t *array, std::uint32_t index, const bson_iter_t *element)
{
    char buffer[16];
    const char *key = nullptr;
    const std::size_t len = bson_uint32_to_string(index, &key, buffer, sizeof buffer);
    bson_append_iter(array, key, int(len), element);
}

void addToDigest(QCryptographicHash &hash, const bson_iter_t *element)
{
    const ValueSpan v = valueOf(element);
    const char type = char(v.type);
    hash.addData(QByteArrayView(&type, 1));
    hash.addData(QByteArrayView(reinterpret_cast<const char *>(v.data), qsizetype(v.length)));
}

// Visits the elements of the primary's array, then each page's items, in order.
template <typename Visit>
bool forEachElement(const QByteArray &primary, const std::vector<QByteArray> &pages,
                    const SplitConfig &config, const Visit &visit, QString *problem)
{
    bson_t doc;
    if (!bson_init_static(&doc, reinterpret_cast<const std::uint8_t *>(primary.constData()),
                          std::size_t(primary.size()))) {
        *problem = QStringLiteral("malformed primary document");
        return false;
    }
    bson_iter_t at, element;
    QString what;
    const Found found = locate(&doc, config.pathSegments(), &at, &what);
    if (found == Found::Array) {
        bson_iter_recurse(&at, &element);
        while (bson_iter_next(&element))
            visit(&element);
    } else if (found != Found::Missing) {
        *problem = QStringLiteral("field '%1' of the primary is not an array").arg(config.field);
        return false;
    }
    const QByteArray items = config.itemsField.toUtf8();
    for (std::size_t k = 0; k < pages.size(); ++k) {
        bson_t page;
        bson_iter_t it;
        if (!bson_init_static(&page, reinterpret_cast<const std::uint8_t *>(pages[k].constData()),
                              std::size_t(pages[k].size())) ||
            !bson_iter_init_find_w_len(&it, &page, items.constData(), int(items.size())) ||
            !BSON_ITER_HOLDS_ARRAY(&it)) {
            *problem =
                QStringLiteral("overflow page %1 has no '%2' array").arg(k).arg(config.itemsField);
            return false;
        }
        bson_iter_recurse(&it, &element);
        while (bson_iter_next(&element))
            visit(&element);
    }
    return true;
}

} // namespace

QByteArray DocumentSplitter::fieldValue(const QByteArray &document, const QString &dottedPath)
{
    bson_t doc;
    if (!bson_init_static(&doc, reinterpret_cast<const std::uint8_t *>(document.constData()),
                          std::size_t(document.size())))
        return {};
    bson_iter_t it;
    const QByteArray path = dottedPath.toUtf8();
    if (!bson_iter_init(&it, &doc))
        return {};
    bson_iter_t found;
    if (!bson_iter_find_descendant(&it, path.constData(), &found))
        return {};
    return rawValue(&found);
}

bool DocumentSplitter::arrayShape(const QByteArray &document, const QString &dottedPath,
                                  std::uint64_t *length, QByteArray *lastElement)
{
    bson_t doc;
    if (!bson_init_static(&doc, reinterpret_cast<const std::uint8_t *>(document.constData()),
                          std::size_t(document.size())))
        return false;
    bson_iter_t at, e;
    QString what;
    if (locate(&doc, dottedPath.split(QLatin1Char('.')), &at, &what) != Found::Array)
        return false;
    *length = 0;
    lastElement->clear();
    bson_iter_recurse(&at, &e);
    while (bson_iter_next(&e)) {
        ++*length;
        *lastElement = rawValue(&e);
    }
    return true;
}

std::uint64_t DocumentSplitter::pageCount(std::uint64_t length, const SplitConfig &config)
{
    const auto keep = std::uint64_t(config.keep);
    const auto size = std::uint64_t(config.pageSize);
    return length > keep ? (length - keep + size - 1) / size : 0;
}

namespace {

using Result = DocumentSplitter::Result;

// The _id and the raw values the split overwrites (for an exact rollback).
void readOriginals(const bson_t *doc, const SplitConfig &config, Result *r, bson_iter_t *idIter,
                   bool *hasId)
{
    *hasId = bson_iter_init_find(idIter, doc, "_id");
    if (*hasId) {
        const ValueSpan v = valueOf(idIter);
        r->rawId = DocumentId::raw(v.type, v.data, v.length);
    }
    bson_iter_t it;
    const QByteArray flag = config.flagField.toUtf8();
    if (bson_iter_init_find_w_len(&it, doc, flag.constData(), int(flag.size()))) {
        r->originalFlag = rawValue(&it);
        r->alreadySplit = BSON_ITER_HOLDS_BOOL(&it) && bson_iter_bool(&it);
    }
    const std::pair<const QString *, QByteArray *> optional[] = {
        {&config.countField, &r->originalCount}, {&config.pagesField, &r->originalPages}};
    for (const auto &[name, value] : optional) {
        if (name->isEmpty())
            continue;
        const QByteArray key = name->toUtf8();
        if (bson_iter_init_find_w_len(&it, doc, key.constData(), int(key.size())))
            *value = rawValue(&it);
    }
}

// Finds the array; false (with `r` saying why, if anything is wrong) when there is none.
bool findArray(const bson_t *doc, const SplitConfig &config, Result *r, bson_iter_t *at)
{
    QString what;
    switch (locate(doc, config.pathSegments(), at, &what)) {
    case Found::Missing:
        return false;
    case Found::NotArray:
        r->kind = Result::Kind::Skipped;
        r->hasField = true;
        r->problem = QStringLiteral("field '%1' is %2, not an array").arg(config.field, what);
        return false;
    case Found::InsideArray:
        r->kind = Result::Kind::Skipped;
        r->hasField = true;
        r->problem = QStringLiteral("field '%1' lies inside the array '%2': arrays inside arrays "
                                    "of documents cannot be split")
                         .arg(config.field, what);
        return false;
    case Found::Array:
        break;
    }
    r->hasField = true;
    r->hasArray = true;
    return true;
}

// The array's length and digest; the first element keyed other than its index, if any (a
// rebuilt array is always keyed 0, 1, ...).
QString measureArray(const bson_iter_t *at, const SplitConfig &config, Result *r)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    bson_iter_t element;
    bson_iter_recurse(at, &element);
    QString misnumbered;
    while (bson_iter_next(&element)) {
        addToDigest(hash, &element);
        const std::string expected = std::to_string(r->length);
        if (misnumbered.isEmpty() && expected != bson_iter_key(&element))
            misnumbered = QStringLiteral("element %1 of '%2' has the key '%3', not '%1'")
                              .arg(r->length)
                              .arg(config.field, QString::fromUtf8(bson_iter_key(&element)));
        ++r->length;
    }
    r->digest = hash.result();
    return misnumbered;
}

// The overflow pages being built: {link: _id, page: k, items: [...]}.
class PageBuilders
{
public:
    PageBuilders(std::uint64_t pages, const bson_iter_t *idIter, const SplitConfig &config)
        : m_pages(new Page[pages]), m_count(pages)
    {
        const QByteArray link = config.linkField.toUtf8(), items = config.itemsField.toUtf8();
        for (std::uint64_t k = 0; k < pages; ++k) {
            bson_t *page = m_pages[k].doc.get();
            bson_append_iter(page, link.constData(), int(link.size()), idIter);
            appendCount(page, config.pageField, k);
            bson_append_array_begin(page, items.constData(), int(items.size()), &m_pages[k].array);
        }
    }
    bson_t *items(std::uint64_t page) { return &m_pages[page].array; }
    std::vector<QByteArray> finish()
    {
        std::vector<QByteArray> out;
        for (std::uint64_t k = 0; k < m_count; ++k) {
            bson_append_array_end(m_pages[k].doc.get(), &m_pages[k].array);
            out.push_back(m_pages[k].doc.bytes());
        }
        return out;
    }

private:
    struct Page
    {
        BsonDocument doc;
        bson_t array;
    };
    std::unique_ptr<Page[]> m_pages;
    std::uint64_t m_count;
};

// The primary (elements [0, keep), the flag, count and pages fields) and the pages.
void buildSplit(const bson_t *doc, const bson_iter_t *at, const bson_iter_t *idIter,
                const SplitConfig &config, Result *r)
{
    const auto keep = std::uint64_t(config.keep);
    const std::uint64_t pages = DocumentSplitter::pageCount(r->length, config);
    const auto pageSize = std::uint64_t(config.pageSize);
    PageBuilders builders(pages, idIter, config);
    const auto fill = [&](bson_t *array) {
        bson_iter_t e;
        bson_iter_recurse(at, &e);
        for (std::uint64_t i = 0; bson_iter_next(&e); ++i) {
            if (i < keep) {
                appendElement(array, std::uint32_t(i), &e);
                continue;
            }
            const std::uint64_t moved = i - keep;
            appendElement(builders.items(moved / pageSize), std::uint32_t(moved % pageSize), &e);
            r->movedBytes += bsoniter::elementLength(&e);
            ++r->movedElements;
        }
    };
    bool flagDone = false, countDone = false, pagesDone = false;
    const auto topLevel = [&](bson_t *out, const std::string_view &key, const bson_iter_t *) {
        auto is = [&](const QString &name) {
            return !name.isEmpty() && key == std::string_view(name.toUtf8().constData());
        };
        if (is(config.flagField)) {
            bson_append_bool(out, key.data(), int(key.size()), true);
            return flagDone = true;
        }
        if (is(config.countField)) {
            appendCount(out, config.countField, r->length);
            return countDone = true;
        }
        if (is(config.pagesField)) {
            appendCount(out, config.pagesField, pages);
            return pagesDone = true;
        }
        return false;
    };
    BsonDocument primary;
    bson_iter_t top;
    bson_iter_init(&top, doc);
    rebuild(primary.get(), &top, config.pathSegments(), 0, fill, topLevel);
    const QByteArray flag = config.flagField.toUtf8();
    if (!flagDone)
        bson_append_bool(primary.get(), flag.constData(), int(flag.size()), true);
    if (!config.countField.isEmpty() && !countDone)
        appendCount(primary.get(), config.countField, r->length);
    if (!config.pagesField.isEmpty() && !pagesDone)
        appendCount(primary.get(), config.pagesField, pages);
    r->primary = primary.bytes();
    r->pages = builders.finish();
}

} // namespace

DocumentSplitter::Result DocumentSplitter::split(const std::uint8_t *data, std::uint32_t length,
                                                 const SplitConfig &config)
{
    Result r;
    bson_t doc;
    if (!bson_init_static(&doc, data, length)) {
        r.kind = Result::Kind::Invalid;
        r.problem = QStringLiteral("malformed BSON document");
        return r;
    }
    bson_iter_t idIter, at;
    bool hasId = false;
    readOriginals(&doc, config, &r, &idIter, &hasId);
    if (!findArray(&doc, config, &r, &at))
        return r;
    const QString misnumbered = measureArray(&at, config, &r);
    if (r.length <= std::uint64_t(config.keep) || r.alreadySplit)
        return r;
    r.kind = Result::Kind::Invalid;
    if (!misnumbered.isEmpty()) {
        // Split and reassembled, the array would be renumbered: not the document it was.
        r.problem = misnumbered + QStringLiteral(": BSON arrays are keyed 0, 1, 2, ...");
        return r;
    }
    if (!hasId) {
        r.problem = QStringLiteral("document has no _id to link its overflow pages to");
        return r;
    }
    r.kind = Result::Kind::Split;
    buildSplit(&doc, &at, &idIter, config, &r);
    return r;
}

bool DocumentSplitter::reassemble(const QByteArray &primary,
                                  const std::vector<QByteArray> &pagesInOrder,
                                  const SplitConfig &config, const QByteArray &originalFlag,
                                  const QByteArray &originalCount, const QByteArray &originalPages,
                                  QByteArray *out, QString *problem)
{
    std::vector<QByteArray> elements; // raw values in order
    if (!forEachElement(
            primary, pagesInOrder, config,
            [&](const bson_iter_t *e) { elements.push_back(rawValue(e)); }, problem))
        return false;
    bson_t doc;
    bson_init_static(&doc, reinterpret_cast<const std::uint8_t *>(primary.constData()),
                     std::size_t(primary.size()));
    const auto fill = [&](bson_t *array) {
        for (std::size_t i = 0; i < elements.size(); ++i) {
            char buffer[16];
            const char *key = nullptr;
            bson_uint32_to_string(std::uint32_t(i), &key, buffer, sizeof buffer);
            appendRaw(array, QString::fromLatin1(key), elements[i]);
        }
    };
    const auto topLevel = [&](bson_t *o, const std::string_view &key, const bson_iter_t *) {
        const QString k = QString::fromUtf8(key.data(), qsizetype(key.size()));
        if (k == config.flagField)
            return appendRaw(o, k, originalFlag), true;
        if (!config.countField.isEmpty() && k == config.countField)
            return appendRaw(o, k, originalCount), true;
        if (!config.pagesField.isEmpty() && k == config.pagesField)
            return appendRaw(o, k, originalPages), true;
        return false;
    };
    BsonDocument rebuilt;
    bson_iter_t top;
    bson_iter_init(&top, &doc);
    rebuild(rebuilt.get(), &top, config.pathSegments(), 0, fill, topLevel);
    *out = rebuilt.bytes();
    return true;
}

bool DocumentSplitter::concatenatedDigest(const QByteArray &primary,
                                          const std::vector<QByteArray> &pagesInOrder,
                                          const SplitConfig &config, std::uint64_t prefix,
                                          QByteArray *digest, std::uint64_t *total,
                                          QString *problem)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    std::uint64_t n = 0;
    const bool ok = forEachElement(
        primary, pagesInOrder, config,
        [&](const bson_iter_t *e) {
            if (n < prefix)
                addToDigest(hash, e);
            ++n;
        },
        problem);
    *digest = hash.result();
    *total = n;
    return ok;
}

} // namespace oe
