#include "models/FieldTableModel.h"

#include "charts/Format.h"

#include <QLocale>

namespace oe {

void FieldTableModel::setResult(const AnalysisResult &result)
{
    beginResetModel();
    m_rows.clear();
    for (const FieldProfile &f : result.profile.fields) {
        if (f.arrays == 0)
            continue;
        Row row{f, std::nullopt};
        if (const auto *r = result.recommendationFor(f.path))
            row.recommendation = *r;
        m_rows.push_back(std::move(row));
    }
    // Longest arrays first: the paths worth looking at.
    std::stable_sort(m_rows.begin(), m_rows.end(), [](const Row &a, const Row &b) {
        return a.field.lengths.max() > b.field.lengths.max();
    });
    endResetModel();
}

void FieldTableModel::clear()
{
    beginResetModel();
    m_rows.clear();
    endResetModel();
}

const FieldProfile *FieldTableModel::fieldAt(int row) const
{
    return row >= 0 && row < int(m_rows.size()) ? &m_rows[std::size_t(row)].field : nullptr;
}

int FieldTableModel::rowOf(const std::string &path) const
{
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].field.path == path)
            return int(i);
    return -1;
}

int FieldTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int FieldTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant FieldTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows[std::size_t(index.row())];
    const FieldProfile &f = row.field;
    const auto &rec = row.recommendation;
    if (role == SortRole) {
        switch (index.column()) {
        case Path:
            return QString::fromStdString(f.path);
        case Documents:
            return qulonglong(f.presentDocuments);
        case MeanLength:
            return f.lengths.mean();
        case P50:
            return qulonglong(f.lengths.quantile(0.5));
        case P99:
            return qulonglong(f.lengths.quantile(0.99));
        case MaxLength:
            return qulonglong(f.lengths.max());
        case ElementBytes:
            return f.meanElementBytes();
        case RecommendedKeep:
            return rec && rec->splittable ? qulonglong(rec->keep) : qulonglong(0);
        case DocumentsOver:
            return rec && rec->splittable ? qulonglong(rec->documentsOver) : qulonglong(0);
        }
    }
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Path:
            return QString::fromStdString(f.path);
        case Documents:
            return f.lengthsOnly ? QString() : Format::count(f.presentDocuments);
        case MeanLength:
            return QLocale().toString(f.lengths.mean(), 'f', 1);
        case P50:
            return Format::count(f.lengths.quantile(0.5));
        case P99:
            return Format::count(f.lengths.quantile(0.99));
        case MaxLength:
            return Format::count(f.lengths.max());
        case ElementBytes:
            return f.lengthsOnly ? QString() : Format::bytes(std::uint64_t(f.meanElementBytes()));
        case RecommendedKeep:
            if (!rec)
                return QString();
            return rec->splittable ? Format::count(rec->keep) : tr("not splittable");
        case DocumentsOver:
            return rec && rec->splittable ? (rec->estimated ? tr("≈ %1") : QStringLiteral("%1"))
                                                .arg(Format::count(rec->documentsOver))
                                          : QString();
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() != Path)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && f.lengthsOnly &&
        (index.column() == Documents || index.column() == ElementBytes))
        return tr("Measured on the server: only the lengths of the arrays at this path inside "
                  "another array were measured (Measure: Here reads the rest)");
    if (role == Qt::ToolTipRole && rec)
        return rec->explanation;
    return {};
}

QVariant FieldTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Path:
        return tr("Field path");
    case Documents:
        return tr("Documents");
    case MeanLength:
        return tr("Mean length");
    case P50:
        return tr("p50");
    case P99:
        return tr("p99");
    case MaxLength:
        return tr("Max");
    case ElementBytes:
        return tr("Element size");
    case RecommendedKeep:
        return tr("Keep (recommended)");
    case DocumentsOver:
        return tr("Documents over");
    }
    return {};
}

} // namespace oe
