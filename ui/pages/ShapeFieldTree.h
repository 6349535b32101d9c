#pragma once

#include "analysis/CollectionProfile.h"
#include "shape/ShapeReport.h"

#include <QTreeWidget>

namespace oe {

// The Shape tab's field tree: every path of a walked collection under its parent, with its
// presence (share and documents) and its types (value types, then array element types), each
// over a stacked bar, its bytes, and the kinds of the flags raised on it.
class ShapeFieldTree : public QTreeWidget
{
    Q_OBJECT
public:
    enum Column
    {
        Field,
        Presence,
        Types,
        ElementTypes,
        Bytes,
        Flags,
        ColumnCount
    };
    static constexpr int PathRole = Qt::UserRole + 1;
    static constexpr int kExpandedChildren = 12; // a top-level field opens with at most these

    explicit ShapeFieldTree(QWidget *parent = nullptr);
    void show(const CollectionProfile &profile, const ShapeReport &shape);
    // The item of a field path (UTF-8 as the profile has it), or null.
    QTreeWidgetItem *itemOf(const std::string &path) const;
    // Shows, expands to and selects a path's item; false if the tree has none.
    bool reveal(const std::string &path);
    // "int 99.7 % · string 0.3 %": the types by count, most first.
    static QString typeMix(const TypeCounts &counts);

private:
    QHash<QString, QTreeWidgetItem *> m_items;
};

} // namespace oe
