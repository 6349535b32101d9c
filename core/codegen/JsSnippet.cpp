#include "codegen/JsSnippet.h"

#include "codegen/CodeLiteral.h"
#include "codegen/CodeTemplate.h"

namespace oe {

namespace {

constexpr const char *kTemplate =
    R"(// Outlier pattern, as Outlier Explorer split it: the first {{keep}} elements of the array
// {{field}} of the collection {{collection}} stay in the document; the rest live in
// the collection {{overflow}}, in pages of {{pageSize}} linked by {{link}} and
// numbered by {{page}}; {{flag}} marks a split document.
// Node.js with the official driver: npm install mongodb
'use strict';

const KEEP = {{keep}};
const PAGE_SIZE = {{pageSize}};

// Once: the index the split created. Pages of one document in order; unique, so two
// writers can never open the same page twice.
async function createOverflowIndex(db) {
  await db.collection({{overflow}}).createIndex({ [{{link}}]: 1, [{{page}}]: 1 }, { unique: true });
}

// Write path: appends `item` to the document's array, wherever it belongs, in at most two
// round trips. The first, one atomic update of the document, pushes `item` into it while it
// has room (no flag, and not exactly KEEP elements: one holding more is an outlier the split
// has not reached yet, and grows in place until it does), or else reserves the next overflow
// slot: it counts `item` in {{count}} (the total length) and sets the flag{{andPages}}.
// The second pushes `item` to the page its slot falls in, opening that page if it is the
// first. The server hands out each slot once, so concurrent writers never collide.
// Needs MongoDB 4.2+ (an update pipeline); `item` goes in through $literal, never evaluated.
async function append{{Name}}(db, id, item) {
  const size = { $size: { $ifNull: [{{fieldRef}}, []] } };
  const room = { $and: [{ $ne: [{{flagRef}}, true] }, { $ne: [size, KEEP] }] };
  const doc = await db.collection({{collection}}).findOneAndUpdate({ _id: id }, [
    { $set: { [{{count}}]: { $add: [{ $ifNull: [{{countRef}}, size] }, 1] } } },
    { $set: {
      [{{field}}]: { $cond: [room,
        { $concatArrays: [{ $ifNull: [{{fieldRef}}, []] }, [{ $literal: item }]] }, {{fieldRef}}] },
      [{{flag}}]: { $cond: [room, {{flagRef}}, true] },{{pagesSet}}
    } },
  ], { projection: { [{{count}}]: 1, [{{flag}}]: 1 }, returnDocument: 'after',
       includeResultMetadata: false });
  if (!doc) throw new Error('append{{Name}}: no such document');
  if (doc[{{flag}}] !== true) return; // it went into the document
  const slot = Number(doc[{{count}}]) - KEEP - 1; // its position among the overflow elements
  const pages = db.collection({{overflow}});
  for (let attempt = 0; ; attempt++) {
    try {
      await pages.updateOne({ [{{link}}]: id, [{{page}}]: Math.floor(slot / PAGE_SIZE) },
                            { $push: { [{{items}}]: item } }, { upsert: true });
      return;
    } catch (e) {
      // Two writers opening one page: the loser finds it there on the next try.
      if (e.code !== 11000 || attempt === 2) throw e;
    }
  }
}

// Read path: `count` elements from position `from` (0 is the first), in order. The first
// KEEP come from the document; deeper ones from the pages that hold them.
async function read{{Name}}(db, id, from = 0, count = Infinity) {
  const doc = await db.collection({{collection}}).findOne({ _id: id });
  if (!doc) return null;
  const head = {{headOf}} ?? [];
  const out = head.slice(from, from + count);
  if (!doc[{{flag}}] || out.length === count) return out;
  const first = Math.floor(Math.max(from - head.length, 0) / PAGE_SIZE);
  const range = { $gte: first };
  if (count !== Infinity)
    range.$lte = Math.floor((from + count - 1 - head.length) / PAGE_SIZE);
  let at = head.length + first * PAGE_SIZE; // the position of the page's first element
  const query = { [{{link}}]: id, [{{page}}]: range };
  for await (const p of db.collection({{overflow}}).find(query).sort({ [{{page}}]: 1 })) {
    for (const item of p[{{items}}]) {
      if (at >= from && out.length < count) out.push(item);
      at += 1;
    }
  }
  return out;
}

// Every element, in order.
async function readAll{{Name}}(db, id) {
  return read{{Name}}(db, id);
}

module.exports = { createOverflowIndex, append{{Name}}, read{{Name}}, readAll{{Name}} };
)";

} // namespace

QString JsSnippet::generate(const SplitConfig &input)
{
    const SplitConfig c = input.withDefaults();
    QHash<QString, QString> names = CodeTemplate::names(c, CodeLanguage::JavaScript);
    names.insert(QStringLiteral("pagesSet"),
                 c.pagesField.isEmpty()
                     ? QString()
                     : QStringLiteral("\n      [%1]: { $cond: [room, %2, { $max: [{ $ifNull: [%2, "
                                      "0] },\n        { $toLong: { $add: [1, { $floor: { $divide: "
                                      "[{ $subtract: [%3, KEEP + 1] }, PAGE_SIZE] } }] } }] }] },")
                           .arg(names.value(QStringLiteral("pages")),
                                names.value(QStringLiteral("pagesRef")),
                                names.value(QStringLiteral("countRef"))));
    QString head = QStringLiteral("doc");
    for (const QString &part : c.pathSegments())
        head += QStringLiteral("?.[%1]").arg(CodeLiteral::javaScript(part));
    names.insert(QStringLiteral("headOf"), head);
    return CodeTemplate::fill(QString::fromUtf8(kTemplate), names);
}

} // namespace oe
