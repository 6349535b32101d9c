#pragma once

#include <QStringList>

// `history`: the analysis history (core's HistoryStore) that `analyze` and the window write:
// the runs as CSV, the whole of it exported (--out DIR: runs.csv, paths.csv, outliers.csv,
// shape_flags.csv), and the growth forecast of each source and of its largest documents
// (--forecast).
class HistoryCommand
{
public:
    static int run(const QStringList &arguments);
};
