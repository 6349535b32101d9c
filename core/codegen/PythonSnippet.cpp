#include "PythonSnippet.h"

#include "CodeLiteral.h"
#include "CodeTemplate.h"

namespace oe {

namespace {

constexpr const char *kTemplate =
    R"(# Outlier pattern, as Outlier Explorer split it: the first {{keep}} elements of the array
# {{field}} of the collection {{collection}} stay in the document; the rest live in
# the collection {{overflow}}, in pages of {{pageSize}} linked by {{link}} and
# numbered by {{page}}; {{flag}} marks a split document.
# Python with PyMongo: pip install pymongo
from pymongo import ASCENDING, DESCENDING
from pymongo.errors import DuplicateKeyError

KEEP = {{keep}}
PAGE_SIZE = {{pageSize}}


def create_overflow_index(db):
    """Once: the index the split created. Pages of one document in order; unique, so two
    writers can never open the same page twice."""
    db[{{overflow}}].create_index([({{link}}, ASCENDING), ({{page}}, ASCENDING)], unique=True)


def append_{{name_}}(db, doc_id, item):
    """Write path: appends `item` to the document's array, wherever it belongs. One round
    trip while the document has room; past that, to its last page, opening the next when
    full."""
    docs, pages = db[{{collection}}], db[{{overflow}}]
    if KEEP > 0:
        r = docs.update_one(
            {"_id": doc_id, {{flag}}: {"$ne": True}, {{fieldKeepLast}}: {"$exists": False}},
            {"$push": {{{field}}: item}})
        if r.matched_count == 1:
            return
    while True:
        last = pages.find_one({{{link}}: doc_id}, {{{page}}: 1}, sort=[({{page}}, DESCENDING)])
        page = last[{{page}}] if last else 0
        try:
            # Only into a page with room: the filter fails once it holds PAGE_SIZE elements.
            r = pages.update_one(
                {{{link}}: doc_id, {{page}}: page, {{itemsPageLast}}: {"$exists": False}},
                {"$push": {{{items}}: item}}, upsert=last is None)
            if r.matched_count == 0 and r.upserted_id is None:
                page += 1  # the last page is full: open the next one
                r = pages.update_one(
                    {{{link}}: doc_id, {{page}}: page, {{itemsPageLast}}: {"$exists": False}},
                    {"$push": {{{items}}: item}}, upsert=True)
        except DuplicateKeyError:
            continue  # another writer opened that page first: go again
{{opened}}        docs.update_one({"_id": doc_id}, {{{setCounters}}})
        return


def read_{{name_}}(db, doc_id, start=0, count=None):
    """Read path: `count` elements (all by default) from position `start` (0 is the first),
    in order. The first KEEP come from the document; deeper ones from the pages that hold
    them. None if there is no such document."""
    doc = db[{{collection}}].find_one({"_id": doc_id})
    if doc is None:
        return None
    head = {{headOf}} or []
    out = head[start:] if count is None else head[start:start + count]
    if not doc.get({{flag}}) or (count is not None and len(out) == count):
        return out
    first = max(start - len(head), 0) // PAGE_SIZE
    query = {{{link}}: doc_id, {{page}}: {"$gte": first}}
    if count is not None:
        query[{{page}}]["$lte"] = (start + count - 1 - len(head)) // PAGE_SIZE
    at = len(head) + first * PAGE_SIZE  # the position of the page's first element
    for p in db[{{overflow}}].find(query).sort({{page}}, ASCENDING):
        for item in p[{{items}}]:
            if at >= start and (count is None or len(out) < count):
                out.append(item)
            at += 1
    return out


def read_all_{{name_}}(db, doc_id):
    """Every element, in order."""
    return read_{{name_}}(db, doc_id)
)";

} // namespace

QString PythonSnippet::generate(const SplitConfig &input)
{
    const SplitConfig c = input.withDefaults();
    QHash<QString, QString> names = CodeTemplate::names(c, CodeLanguage::Python);
    QStringList counters{
        QStringLiteral("\"$set\": {%1: True}").arg(names.value(QStringLiteral("flag")))};
    if (!c.countField.isEmpty())
        counters << QStringLiteral("\"$inc\": {%1: KEEP + 1 if opened else 1}")
                        .arg(names.value(QStringLiteral("count")));
    if (!c.pagesField.isEmpty())
        counters
            << QStringLiteral("\"$max\": {%1: page + 1}").arg(names.value(QStringLiteral("pages")));
    names.insert(QStringLiteral("setCounters"), counters.join(QStringLiteral(", ")));
    names.insert(
        QStringLiteral("opened"),
        c.countField.isEmpty()
            ? QString()
            : QStringLiteral("        # Whoever opened page 0 also counts the KEEP "
                             "elements in the document.\n"
                             "        opened = r.upserted_id is not None and page == 0\n"));
    const QStringList parts = c.pathSegments();
    QString head = QStringLiteral("doc");
    for (int i = 0; i < parts.size(); ++i)
        head += QStringLiteral(".get(%1%2)")
                    .arg(CodeLiteral::python(parts[i]),
                         i + 1 < parts.size() ? QStringLiteral(", {}") : QString());
    names.insert(QStringLiteral("headOf"), head);
    return CodeTemplate::fill(QString::fromUtf8(kTemplate), names);
}

} // namespace oe
