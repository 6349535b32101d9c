#pragma once

#include "OutlierReport.h"

#include <QAbstractTableModel>

namespace oe {

// The outlier rows of an analysis: _id, size, path, length, share of 16 MiB, reason.
// Qt::UserRole gives numbers for sorting; ReasonRole the reason code for filtering.
class OutlierTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        Id,
        Size,
        Path,
        Length,
        ShareOfLimit,
        Reason,
        ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole;
    static constexpr int ReasonRole = Qt::UserRole + 1;

    using QAbstractTableModel::QAbstractTableModel;
    void setRows(const std::vector<OutlierRow> &rows);
    const OutlierRow *rowAt(int row) const;
    QStringList reasons() const; // distinct reason codes, in order of appearance

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::vector<OutlierRow> m_rows;
};

} // namespace oe
