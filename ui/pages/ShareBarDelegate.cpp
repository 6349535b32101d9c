#include "pages/ShareBarDelegate.h"

#include <QPainter>

#include <algorithm>
#include <array>

namespace oe {

void ShareBarDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option,
                             const QModelIndex &index) const
{
    const QVariantList shares = index.data(SharesRole).toList();
    if (!shares.isEmpty()) {
        static const std::array<QColor, 4> minority{
            QColor(0xe6, 0x7e, 0x22), QColor(0xc0, 0x39, 0x2b), QColor(0x8e, 0x44, 0xad),
            QColor(0x7f, 0x8c, 0x8d)};
        const QRect bar = option.rect.adjusted(2, option.rect.height() - 5, -2, -1);
        painter->save();
        painter->fillRect(bar, option.palette.color(QPalette::Midlight));
        double at = 0;
        for (qsizetype i = 0; i < shares.size(); ++i) {
            const double share = std::clamp(shares[i].toDouble(), 0.0, 1.0);
            const int x0 = bar.left() + int(at * bar.width());
            at = std::min(1.0, at + share);
            // A sliver stays visible: at least two pixels.
            const int x1 = std::max(x0 + 2, bar.left() + int(at * bar.width()));
            const QColor colour = i == 0 ? option.palette.color(QPalette::Highlight)
                                         : minority[std::size_t(i - 1) % minority.size()];
            painter->fillRect(
                QRect(QPoint(x0, bar.top()), QPoint(std::min(x1, bar.right()), bar.bottom())),
                colour);
        }
        painter->restore();
    }
    QStyleOptionViewItem text(option);
    text.rect.adjust(0, 0, 0, shares.isEmpty() ? 0 : -5);
    QStyledItemDelegate::paint(painter, text, index);
}

QSize ShareBarDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    return QStyledItemDelegate::sizeHint(option, index) + QSize(0, 6);
}

} // namespace oe
