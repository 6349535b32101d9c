#include "dialogs/ShapeTrendsTable.h"

#include "charts/Format.h"
#include "dialogs/TableCell.h"

#include <QHeaderView>

#include <algorithm>
#include <tuple>

namespace oe {

ShapeTrendsTable::ShapeTrendsTable(QWidget *parent) : QTableWidget(parent)
{
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    verticalHeader()->hide();
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
}

QString ShapeTrendsTable::figure(const HistoryShapeFlag &flag)
{
    return tr("%1 of %2").arg(Format::count(flag.count), Format::count(flag.total));
}

void ShapeTrendsTable::show(const std::vector<HistoryRun> &runs,
                            const std::map<qint64, std::vector<HistoryShapeFlag>> &flags)
{
    const std::size_t first = runs.size() > std::size_t(kMaxRuns) ? runs.size() - kMaxRuns : 0;
    const std::vector<HistoryRun> shown(runs.begin() + std::ptrdiff_t(first), runs.end());
    using Key = std::tuple<QString, QString, QString>;
    std::map<Key, std::map<qint64, HistoryShapeFlag>> rows;
    for (const HistoryRun &r : shown) {
        const auto it = flags.find(r.id);
        if (it != flags.end())
            for (const HistoryShapeFlag &f : it->second)
                rows[{f.kind, f.path, f.type}][r.id] = f;
    }
    QStringList headers = {tr("Kind"), tr("Path"), tr("Type")};
    for (const HistoryRun &r : shown)
        headers << r.at.toString(QStringLiteral("yyyy-MM-dd hh:mm:ss"));
    clear();
    setColumnCount(int(headers.size()));
    setHorizontalHeaderLabels(headers);
    setRowCount(int(rows.size()));
    int row = 0;
    for (const auto &[key, byRun] : rows) {
        setItem(row, 0, tableCell(std::get<0>(key)));
        setItem(row, 1, tableCell(std::get<1>(key)));
        setItem(row, 2, tableCell(std::get<2>(key)));
        for (int c = 0; c < int(shown.size()); ++c) {
            const HistoryRun &r = shown[std::size_t(c)];
            const auto found = byRun.find(r.id);
            QTableWidgetItem *cell;
            if (found != byRun.end()) {
                const HistoryShapeFlag &f = found->second;
                cell = tableCell(figure(f), true);
                cell->setToolTip(
                    Format::percent(f.total ? double(f.count) / double(f.total) : 0, 2));
            } else {
                cell = tableCell(r.shapeFlags ? QStringLiteral("–") : tr("not measured"), true);
            }
            setItem(row, kFixedColumns + c, cell);
        }
        ++row;
    }
}

} // namespace oe
