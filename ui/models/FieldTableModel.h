#pragma once

#include "explore/AnalysisResult.h"

#include <QAbstractTableModel>

namespace oe {

// The array field paths of an analysis with their length statistics and the split
// recommendation, one row per path. Sorts numerically through Qt::UserRole.
class FieldTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        Path,
        Documents,
        MeanLength,
        P50,
        P99,
        MaxLength,
        ElementBytes,
        RecommendedKeep,
        DocumentsOver,
        ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole;

    using QAbstractTableModel::QAbstractTableModel;
    void setResult(const AnalysisResult &result);
    void clear();
    const FieldProfile *fieldAt(int row) const;
    int rowOf(const std::string &path) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    struct Row
    {
        FieldProfile field;
        std::optional<SplitRecommendation> recommendation;
    };
    std::vector<Row> m_rows;
};

} // namespace oe
