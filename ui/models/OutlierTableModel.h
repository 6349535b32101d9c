#pragma once

#include "analysis/OutlierReport.h"

#include <QAbstractTableModel>

namespace oe {

// The outlier documents of an analysis, one row each with every reason it was listed for:
// _id, size, array path(s), longest length, share of 16 MiB, reasons. (The CSV report keeps
// one row per reason, as `analyze` writes it.) Qt::UserRole gives numbers for sorting;
// ReasonRole the reason codes, ", "-separated, for filtering (see reasonPattern()).
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
    // The document's row: reason, path and detail hold every reason's, ", " or line joined.
    const OutlierRow *rowAt(int row) const;
    QStringList reasons() const; // distinct reason codes, in order of appearance
    // Matches the ReasonRole of the rows listed for `code` (among others).
    static QString reasonPattern(const QString &code);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::vector<OutlierRow> m_rows; // one per document
    QStringList m_reasons;
};

} // namespace oe
