#include "pages/ShapeFieldTree.h"

#include "charts/Format.h"
#include "pages/ShareBarDelegate.h"

#include <QHeaderView>

namespace oe {

namespace {

QVariantList sharesOf(const TypeCounts &counts)
{
    QVariantList shares;
    const double total = double(counts.total());
    if (total > 0)
        for (int slot : counts.byCount())
            shares << double(counts.n[std::size_t(slot)]) / total;
    return shares;
}

// The parent of "a.b.c" is "a.b"; an item whose parent path the profile lacks hangs on the
// nearest ancestor it has, else on the root.
QTreeWidgetItem *parentOf(const QString &path, const QHash<QString, QTreeWidgetItem *> &items)
{
    for (qsizetype dot = path.lastIndexOf(QLatin1Char('.')); dot > 0;
         dot = path.lastIndexOf(QLatin1Char('.'), dot - 1)) {
        if (auto *item = items.value(path.left(dot)))
            return item;
    }
    return nullptr;
}

} // namespace

ShapeFieldTree::ShapeFieldTree(QWidget *parent) : QTreeWidget(parent)
{
    setColumnCount(ColumnCount);
    setHeaderLabels(
        {tr("Field"), tr("Present"), tr("Types"), tr("Array elements"), tr("Bytes"), tr("Flags")});
    auto *bars = new ShareBarDelegate(this);
    for (int column : {int(Presence), int(Types), int(ElementTypes)})
        setItemDelegateForColumn(column, bars);
    setAlternatingRowColors(true);
    setUniformRowHeights(true);
    header()->setSectionResizeMode(QHeaderView::Interactive);
    header()->resizeSection(Field, 200);
    header()->resizeSection(Presence, 130);
    header()->resizeSection(Types, 200);
    header()->resizeSection(ElementTypes, 160);
}

QString ShapeFieldTree::typeMix(const TypeCounts &counts)
{
    const double total = double(counts.total());
    QStringList parts;
    for (int slot : counts.byCount())
        parts << QStringLiteral("%1 %2").arg(
            BsonTypes::name(slot), Format::percent(double(counts.n[std::size_t(slot)]) / total));
    return parts.join(QStringLiteral(" · "));
}

void ShapeFieldTree::show(const CollectionProfile &profile, const ShapeReport &shape)
{
    clear();
    m_items.clear();
    QHash<QString, QStringList> flagsOf;
    for (const ShapeFlag &f : shape.listed()) {
        if (!f.explainedBy.isEmpty())
            continue;
        if (!f.path.empty())
            flagsOf[QString::fromStdString(f.path)] << ShapeFlag::kindName(f.kind);
        for (const std::string &member : f.members) // a sparse family's fields
            flagsOf[QString::fromStdString(member)] << ShapeFlag::kindName(f.kind);
    }
    const double documents = double(std::max<std::uint64_t>(1, profile.documents));
    for (const FieldProfile &f : profile.fields) { // sorted: parents before children
        const QString path = QString::fromStdString(f.path);
        QTreeWidgetItem *parent = parentOf(path, m_items);
        auto *item = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(this);
        const qsizetype dot = path.lastIndexOf(QLatin1Char('.'));
        item->setText(Field, parent ? path.mid(dot + 1) : path);
        item->setToolTip(Field, path);
        item->setData(Field, PathRole, path);
        const double present = double(f.presentDocuments) / documents;
        item->setText(Presence, QStringLiteral("%1 (%2)").arg(Format::percent(present),
                                                              Format::count(f.presentDocuments)));
        item->setData(Presence, ShareBarDelegate::SharesRole, QVariantList{present});
        item->setText(Types, typeMix(f.shape.types));
        item->setToolTip(Types, item->text(Types));
        item->setData(Types, ShareBarDelegate::SharesRole, sharesOf(f.shape.types));
        if (f.shape.elementTypes.total() > 0) {
            item->setText(ElementTypes, typeMix(f.shape.elementTypes));
            item->setToolTip(ElementTypes, item->text(ElementTypes));
            item->setData(ElementTypes, ShareBarDelegate::SharesRole,
                          sharesOf(f.shape.elementTypes));
        }
        item->setText(Bytes, Format::bytes(f.bytes));
        item->setTextAlignment(Bytes, Qt::AlignRight | Qt::AlignVCenter);
        const QStringList kinds = flagsOf.value(path);
        if (!kinds.isEmpty()) {
            item->setText(Flags, kinds.join(QStringLiteral(", ")));
            QFont bold = item->font(Field);
            bold.setBold(true);
            item->setFont(Field, bold);
        }
        m_items.insert(path, item);
    }
    // Open the top level where it stays readable: an object of 240 channels stays closed.
    for (int i = 0; i < topLevelItemCount(); ++i)
        topLevelItem(i)->setExpanded(topLevelItem(i)->childCount() <= kExpandedChildren);
}

QTreeWidgetItem *ShapeFieldTree::itemOf(const std::string &path) const
{
    return m_items.value(QString::fromStdString(path));
}

bool ShapeFieldTree::reveal(const std::string &path)
{
    QTreeWidgetItem *item = itemOf(path);
    if (!item)
        return false;
    for (QTreeWidgetItem *p = item->parent(); p; p = p->parent())
        p->setExpanded(true);
    setCurrentItem(item);
    scrollToItem(item);
    return true;
}

} // namespace oe
