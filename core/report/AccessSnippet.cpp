#include "AccessSnippet.h"

#include "CodeLiteral.h"
#include "CodeTemplate.h"

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

// Write: append to the document while it holds fewer than {{keep}} elements and has
// no overflow; otherwise to the last page (a new one every {{pageSize}} elements).
function append{{Name}}(id, item) {
  const r = db.getCollection({{collection}}).updateOne(
    { _id: id, [{{flag}}]: { $ne: true }, $expr: { $lt: [{ $size: { $ifNull: [{{fieldPath}}, []] } }, {{keep}}] } },
    { $push: { [{{field}}]: item } })
  if (r.matchedCount === 1) return
  const last = db.getCollection({{overflow}}).find({ [{{link}}]: id }).sort({ [{{page}}]: -1 }).limit(1).toArray()[0]
  const page = !last ? 0 : last[{{items}}].length < {{pageSize}} ? last[{{page}}] : last[{{page}}] + 1
  db.getCollection({{overflow}}).updateOne({ [{{link}}]: id, [{{page}}]: page }, { $push: { [{{items}}]: item } }, { upsert: true })
  db.getCollection({{collection}}).updateOne({ _id: id }, { $set: { [{{flag}}]: true }{{counters}} })
}
)";

} // namespace

QString AccessSnippet::mongosh(const SplitConfig &input)
{
    const SplitConfig c = input.withDefaults();
    QHash<QString, QString> names = CodeTemplate::names(c, CodeLanguage::Mongosh);
    QString counters;
    if (!c.countField.isEmpty())
        counters += QStringLiteral(", $inc: { [%1]: 1 }").arg(names.value(QStringLiteral("count")));
    if (!c.pagesField.isEmpty())
        counters +=
            QStringLiteral(", $max: { [%1]: page + 1 }").arg(names.value(QStringLiteral("pages")));
    names.insert(QStringLiteral("counters"), counters);
    QString head = QStringLiteral("doc");
    for (const QString &part : c.pathSegments())
        head += QStringLiteral("?.[%1]").arg(CodeLiteral::javaScript(part));
    names.insert(QStringLiteral("headOf"), head);
    names.insert(QStringLiteral("fieldPath"), CodeLiteral::javaScript(QLatin1Char('$') + c.field));
    return CodeTemplate::fill(QString::fromUtf8(kTemplate), names);
}

} // namespace oe
