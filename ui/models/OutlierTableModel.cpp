#include "models/OutlierTableModel.h"

#include "charts/Format.h"

#include <QBrush>
#include <QColor>
#include <QRegularExpression>

#include <unordered_map>

namespace oe {

void OutlierTableModel::setRows(const std::vector<OutlierRow> &rows)
{
    beginResetModel();
    m_rows.clear();
    m_reasons.clear();
    std::unordered_map<std::uint64_t, std::size_t> byDocument;
    for (const OutlierRow &r : rows) {
        if (!m_reasons.contains(r.reason))
            m_reasons << r.reason;
        const auto [at, added] = byDocument.try_emplace(r.docIndex, m_rows.size());
        if (added) {
            m_rows.push_back(r);
            continue;
        }
        OutlierRow &doc = m_rows[at->second];
        if (!doc.reason.split(QStringLiteral(", ")).contains(r.reason))
            doc.reason += QStringLiteral(", ") + r.reason;
        if (!r.path.isEmpty() && !doc.path.split(QStringLiteral(", ")).contains(r.path))
            doc.path = doc.path.isEmpty() ? r.path : doc.path + QStringLiteral(", ") + r.path;
        doc.arrayLength = std::max(doc.arrayLength, r.arrayLength);
        doc.detail += QLatin1Char('\n') + r.detail;
    }
    endResetModel();
}

QString OutlierTableModel::reasonPattern(const QString &code)
{
    return QStringLiteral("(^|, )%1(, |$)").arg(QRegularExpression::escape(code));
}

const OutlierRow *OutlierTableModel::rowAt(int row) const
{
    return row >= 0 && row < int(m_rows.size()) ? &m_rows[std::size_t(row)] : nullptr;
}

QStringList OutlierTableModel::reasons() const
{
    return m_reasons;
}

int OutlierTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int OutlierTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant OutlierTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const OutlierRow &r = m_rows[std::size_t(index.row())];
    const double share = Format::ofLimit(r.bsonSize);
    switch (role) {
    case SortRole:
        switch (index.column()) {
        case Id:
            return r.id;
        case Size:
            return qulonglong(r.bsonSize);
        case Path:
            return r.path;
        case Length:
            return qulonglong(r.arrayLength);
        case ShareOfLimit:
            return share;
        case Reason:
            return r.reason;
        }
        break;
    case ReasonRole:
        return r.reason;
    case Qt::DisplayRole:
        switch (index.column()) {
        case Id:
            return Format::shortened(r.id); // the document viewer shows it whole
        case Size:
            return Format::bytes(r.bsonSize);
        case Path:
            return r.path;
        case Length:
            return r.arrayLength == 0 && r.path.isEmpty() ? QString()
                                                          : Format::count(r.arrayLength);
        case ShareOfLimit:
            return Format::percent(share);
        case Reason:
            return r.reason;
        }
        break;
    case Qt::ToolTipRole:
        return tr("%1\nDouble-click to open the document.").arg(r.detail);
    case Qt::TextAlignmentRole:
        if (index.column() == Size || index.column() == Length || index.column() == ShareOfLimit)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        break;
    case Qt::ForegroundRole:
        if (index.column() == ShareOfLimit && share >= 0.5)
            return QBrush(QColor(0xd9, 0x48, 0x0f));
        break;
    }
    return {};
}

QVariant OutlierTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Id:
        return tr("_id");
    case Size:
        return tr("Size");
    case Path:
        return tr("Array path");
    case Length:
        return tr("Length");
    case ShareOfLimit:
        return tr("% of 16 MiB");
    case Reason:
        return tr("Reasons");
    }
    return {};
}

} // namespace oe
