#include "SummaryCsv.h"

#include "CsvTestReader.h"

namespace fixtures {

SummaryCsv SummaryCsv::read(const QString &dir)
{
    SummaryCsv summary;
    const auto rows = csvtest::readFile(dir + QStringLiteral("/summary.csv"));
    for (qsizetype i = 1; i < rows.size(); ++i) // the header row first
        summary.m_values.insert(rows.at(i).value(0), rows.at(i).value(1));
    return summary;
}

} // namespace fixtures
