#pragma once

#include <QStyledItemDelegate>

namespace oe {

// Paints a cell's shares (a QVariantList of doubles in ShareBarDelegate::SharesRole, 0..1,
// largest first) as one stacked bar under the cell's text: the presence of a field, the mix
// of its types. The first segment in the palette's highlight, the minorities in warm colours
// so a 0.3 % sliver stands out.
class ShareBarDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    static constexpr int SharesRole = Qt::UserRole + 40;
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
};

} // namespace oe
