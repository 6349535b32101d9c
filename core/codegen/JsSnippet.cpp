#include "JsSnippet.h"

#include "CodeLiteral.h"
#include "CodeTemplate.h"

namespace oe {

namespace {

// {{setCounters}}: what the parent records on an append to a page.
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

// Write path: appends `item` to the document's array, wherever it belongs. One round trip
// while the document has room; past that, to its last page, opening the next when full.
async function append{{Name}}(db, id, item) {
  const docs = db.collection({{collection}});
  const pages = db.collection({{overflow}});
  if (KEEP > 0) {
    const r = await docs.updateOne(
      { _id: id, [{{flag}}]: { $ne: true }, [{{fieldKeepLast}}]: { $exists: false } },
      { $push: { [{{field}}]: item } });
    if (r.matchedCount === 1) return;
  }
  for (;;) {
    const last = await pages.findOne({ [{{link}}]: id },
                                     { sort: { [{{page}}]: -1 }, projection: { [{{page}}]: 1 } });
    let page = last ? last[{{page}}] : 0;
    try {
      // Only into a page with room: the filter fails once it holds PAGE_SIZE elements.
      let r = await pages.updateOne(
        { [{{link}}]: id, [{{page}}]: page, [{{itemsPageLast}}]: { $exists: false } },
        { $push: { [{{items}}]: item } }, { upsert: !last });
      if (r.matchedCount === 0 && r.upsertedCount === 0) {
        page += 1; // the last page is full: open the next one
        r = await pages.updateOne(
          { [{{link}}]: id, [{{page}}]: page, [{{itemsPageLast}}]: { $exists: false } },
          { $push: { [{{items}}]: item } }, { upsert: true });
      }
{{opened}}      await docs.updateOne({ _id: id }, { {{setCounters}} });
      return;
    } catch (e) {
      if (e.code !== 11000) throw e; // another writer opened that page first: go again
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
    QStringList counters{
        QStringLiteral("$set: { [%1]: true }").arg(names.value(QStringLiteral("flag")))};
    if (!c.countField.isEmpty())
        counters << QStringLiteral("$inc: { [%1]: opened ? KEEP + 1 : 1 }")
                        .arg(names.value(QStringLiteral("count")));
    if (!c.pagesField.isEmpty())
        counters
            << QStringLiteral("$max: { [%1]: page + 1 }").arg(names.value(QStringLiteral("pages")));
    names.insert(QStringLiteral("setCounters"), counters.join(QStringLiteral(", ")));
    names.insert(
        QStringLiteral("opened"),
        c.countField.isEmpty()
            ? QString()
            : QStringLiteral("      // Whoever opened page 0 also counts the KEEP "
                             "elements in the document.\n"
                             "      const opened = r.upsertedCount === 1 && page === 0;\n"));
    QString head = QStringLiteral("doc");
    for (const QString &part : c.pathSegments())
        head += QStringLiteral("?.[%1]").arg(CodeLiteral::javaScript(part));
    names.insert(QStringLiteral("headOf"), head);
    return CodeTemplate::fill(QString::fromUtf8(kTemplate), names);
}

} // namespace oe
