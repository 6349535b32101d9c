#include "AccessSnippet.h"

namespace oe {

QString AccessSnippet::mongosh(const SplitConfig &input)
{
    const SplitConfig c = input.withDefaults();
    const QString coll = c.collection, field = c.field, over = c.overflowCollection;
    QString counters;
    if (!c.countField.isEmpty())
        counters += QStringLiteral(", $inc: { %1: 1 }").arg(c.countField);
    if (!c.pagesField.isEmpty())
        counters += QStringLiteral(", $max: { %1: page + 1 }").arg(c.pagesField);
    return QStringLiteral(
               "// Index (the split created it): pages by parent, in order.\n"
               "db.%3.createIndex({ %4: 1, %5: 1 }, { unique: true })\n\n"
               "// Read: the first %7 elements are in the document; the rest in %3, page by "
               "page.\n"
               "function read%8(id) {\n"
               "  const doc = db.%1.findOne({ _id: id })\n"
               "  let items = doc.%2 ?? []\n"
               "  if (doc.%6) {\n"
               "    db.%3.find({ %4: id }).sort({ %5: 1 })\n"
               "      .forEach(p => { items = items.concat(p.%9) })\n"
               "  }\n"
               "  return items\n"
               "}\n\n"
               "// Write: append to the document while it holds fewer than %7 elements and has\n"
               "// no overflow; otherwise to the last page (a new one every %10 elements).\n"
               "function append%8(id, item) {\n"
               "  const r = db.%1.updateOne(\n"
               "    { _id: id, %6: { $ne: true }, $expr: { $lt: [{ $size: { $ifNull: "
               "[\"$%2\", []] } }, %7] } },\n"
               "    { $push: { \"%2\": item } })\n"
               "  if (r.matchedCount === 1) return\n"
               "  const last = db.%3.find({ %4: id }).sort({ %5: -1 }).limit(1).toArray()[0]\n"
               "  const page = !last ? 0 : last.%9.length < %10 ? last.%5 : last.%5 + 1\n"
               "  db.%3.updateOne({ %4: id, %5: page }, { $push: { %9: item } }, { upsert: true "
               "})\n"
               "  db.%1.updateOne({ _id: id }, { $set: { %6: true }%11 })\n"
               "}\n")
        .arg(coll, field, over, c.linkField, c.pageField, c.flagField, QString::number(c.keep),
             QString(field).remove(QLatin1Char('.')).replace(0, 1, field.left(1).toUpper()),
             c.itemsField)
        .arg(QString::number(c.pageSize), counters);
}

} // namespace oe
