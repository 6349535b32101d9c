#pragma once

#include <QString>
#include <QTableWidgetItem>

namespace oe {

// A read-only table cell, right-aligned for a figure: the dialogs' tables (Trends, Watch).
inline QTableWidgetItem *tableCell(const QString &text, bool number = false)
{
    auto *item = new QTableWidgetItem(text);
    item->setFlags(item->flags() & ~Qt::ItemIsEditable);
    if (number)
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

} // namespace oe
