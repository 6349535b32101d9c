#include "codegen/AccessSnippet.h"

#include "codegen/CodeLiteral.h"
#include "codegen/CodeTemplate.h"

namespace oe {

namespace {

constexpr const char *kTemplate =
    R"(// Index (the split created it): pages by parent, in order.
db.getCollection({{overflow}}).createIndex({ [{{link}}]: 1, [{{page}}]: 1 }, { unique: true })

// Read: the first {{keep}} elements are in the document; the rest in {{overflow}}, page by page.
function read{{Name}}(id) {
  const doc = db.getCollection({{collection}}).findOne({ _id: id })
  let items = {{headOf}} ?? []
  if (doc[{{flag}}]) {
    db.getCollection({{overflow}}).find({ [{{link}}]: id }).sort({ [{{page}}]: 1 })
      .forEach(p => { items = items.concat(p[{{items}}]) })
  }
  return items
}

// Write: one atomic update pushes into the document while it has room (no flag, not exactly
// {{keep}} elements), else counts the element in {{count}} and flags it; the slot that count
// names picks the page (a new one every {{pageSize}} elements). MongoDB 4.2+.
function append{{Name}}(id, item) {
  const size = { $size: { $ifNull: [{{fieldRef}}, []] } }
  const room = { $and: [{ $ne: [{{flagRef}}, true] }, { $ne: [size, {{keep}}] }] }
  const doc = db.getCollection({{collection}}).findOneAndUpdate({ _id: id }, [
    { $set: { [{{count}}]: { $add: [{ $ifNull: [{{countRef}}, size] }, 1] } } },
    { $set: { [{{field}}]: { $cond: [room, { $concatArrays: [{ $ifNull: [{{fieldRef}}, []] }, [{ $literal: item }]] }, {{fieldRef}}] },
              [{{flag}}]: { $cond: [room, {{flagRef}}, true] }{{pagesSet}} } }
  ], { projection: { [{{count}}]: 1, [{{flag}}]: 1 }, returnNewDocument: true })
  if (!doc || doc[{{flag}}] !== true) return
  const page = Math.floor((Number(doc[{{count}}]) - {{keep}} - 1) / {{pageSize}})
  db.getCollection({{overflow}}).updateOne({ [{{link}}]: id, [{{page}}]: page }, { $push: { [{{items}}]: item } }, { upsert: true })
}
)";

} // namespace

QString AccessSnippet::mongosh(const SplitConfig &input)
{
    const SplitConfig c = input.withDefaults();
    QHash<QString, QString> names = CodeTemplate::names(c, CodeLanguage::Mongosh);
    names.insert(QStringLiteral("pagesSet"),
                 c.pagesField.isEmpty()
                     ? QString()
                     : QStringLiteral(",\n              [%1]: { $cond: [room, %2, { $max: [{ "
                                      "$ifNull: [%2, 0] }, { $toLong: { $add: [1, { $floor: { "
                                      "$divide: [{ $subtract: [%3, %4] }, %5] } }] } }] }] }")
                           .arg(names.value(QStringLiteral("pages")),
                                names.value(QStringLiteral("pagesRef")),
                                names.value(QStringLiteral("countRef")))
                           .arg(c.keep + 1)
                           .arg(c.pageSize));
    QString head = QStringLiteral("doc");
    for (const QString &part : c.pathSegments())
        head += QStringLiteral("?.[%1]").arg(CodeLiteral::javaScript(part));
    names.insert(QStringLiteral("headOf"), head);
    return CodeTemplate::fill(QString::fromUtf8(kTemplate), names);
}

} // namespace oe
