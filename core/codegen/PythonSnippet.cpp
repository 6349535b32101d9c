#include "codegen/PythonSnippet.h"

#include "codegen/CodeLiteral.h"
#include "codegen/CodeTemplate.h"

namespace oe {

namespace {

constexpr const char *kTemplate =
    R"(# Outlier pattern, as Outlier Explorer split it: the first {{keep}} elements of the array
# {{field}} of the collection {{collection}} stay in the document; the rest live in
# the collection {{overflow}}, in pages of {{pageSize}} linked by {{link}} and
# numbered by {{page}}; {{flag}} marks a split document.
# Python with PyMongo: pip install pymongo
from pymongo import ASCENDING, ReturnDocument
from pymongo.errors import DuplicateKeyError

KEEP = {{keep}}
PAGE_SIZE = {{pageSize}}


def create_overflow_index(db):
    """Once: the index the split created. Pages of one document in order; unique, so two
    writers can never open the same page twice."""
    db[{{overflow}}].create_index([({{link}}, ASCENDING), ({{page}}, ASCENDING)], unique=True)


def append_{{name_}}(db, doc_id, item):
    """Write path: appends `item` to the document's array, wherever it belongs, in at most
    two round trips. The first, one atomic update of the document, pushes `item` into it
    while it has room (no flag, and not exactly KEEP elements: one holding more is an outlier
    the split has not reached yet, and grows in place until it does), or else reserves the
    next overflow slot: it counts `item` in {{count}} (the total length) and sets the
    flag{{andPages}}. The second pushes `item` to the page its slot falls in, opening
    that page if it is the first. The server hands out each slot once, so concurrent writers
    never collide. Needs MongoDB 4.2+ (an update pipeline); `item` goes in through $literal,
    never evaluated."""
    size = {"$size": {"$ifNull": [{{fieldRef}}, []]}}
    room = {"$and": [{"$ne": [{{flagRef}}, True]}, {"$ne": [size, KEEP]}]}
    doc = db[{{collection}}].find_one_and_update({"_id": doc_id}, [
        {"$set": {{{count}}: {"$add": [{"$ifNull": [{{countRef}}, size]}, 1]}}},
        {"$set": {
            {{field}}: {"$cond": [room, {"$concatArrays": [
                {"$ifNull": [{{fieldRef}}, []]}, [{"$literal": item}]]}, {{fieldRef}}]},
            {{flag}}: {"$cond": [room, {{flagRef}}, True]},{{pagesSet}}
        }},
    ], projection={{{count}}: 1, {{flag}}: 1}, return_document=ReturnDocument.AFTER)
    if doc is None:
        raise KeyError("append_{{name_}}: no such document")
    if doc.get({{flag}}) is not True:
        return  # it went into the document
    slot = int(doc[{{count}}]) - KEEP - 1  # its position among the overflow elements
    for attempt in range(3):
        try:
            db[{{overflow}}].update_one({{{link}}: doc_id, {{page}}: slot // PAGE_SIZE},
                                        {"$push": {{{items}}: item}}, upsert=True)
            return
        except DuplicateKeyError:
            # Two writers opening one page: the loser finds it there on the next try.
            if attempt == 2:
                raise


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
    names.insert(QStringLiteral("pagesSet"),
                 c.pagesField.isEmpty()
                     ? QString()
                     : QStringLiteral("\n            %1: {\"$cond\": [room, %2, {\"$max\": [\n   "
                                      "             {\"$ifNull\": [%2, 0]}, {\"$toLong\": "
                                      "{\"$add\": [1, {\"$floor\": {\"$divide\": [\n          "
                                      "          {\"$subtract\": [%3, KEEP + 1]}, "
                                      "PAGE_SIZE]}}]}}]}]},")
                           .arg(names.value(QStringLiteral("pages")),
                                names.value(QStringLiteral("pagesRef")),
                                names.value(QStringLiteral("countRef"))));
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
