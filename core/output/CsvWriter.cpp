#include "output/CsvWriter.h"

#include <QLocale>

namespace oe {

CsvWriter::CsvWriter(const QStringList &header) : m_columns(int(header.size()))
{
    addRow(header);
    m_rows = 0;
}

CsvWriter::CsvWriter(QIODevice *device, const QStringList &header)
    : m_device(device), m_columns(int(header.size()))
{
    addRow(header);
    m_rows = 0;
}

CsvWriter::~CsvWriter()
{
    flush();
}

bool CsvWriter::flush()
{
    if (m_device && !m_bytes.isEmpty()) {
        if (m_device->write(m_bytes) != m_bytes.size())
            m_failed = true;
        m_bytes.clear();
    }
    return !m_failed;
}

// A text a spreadsheet would take for a formula (=, +, -, @ first, or a tab or CR): prefixed
// with an apostrophe, which spreadsheets show as text. A number ("-5", "+1e3") stays a number.
QString CsvWriter::defused(const QString &field)
{
    static const QString kFormulaStart = QStringLiteral("=+-@\t\r");
    if (field.isEmpty() || !kFormulaStart.contains(field.front()))
        return field;
    bool number = false;
    QLocale::c().toDouble(field, &number);
    return number ? field : QLatin1Char('\'') + field;
}

QString CsvWriter::escape(const QString &input)
{
    const QString field = defused(input);
    const bool quote = field.contains(QLatin1Char(',')) || field.contains(QLatin1Char('"')) ||
                       field.contains(QLatin1Char('\n')) || field.contains(QLatin1Char('\r')) ||
                       field.startsWith(QLatin1Char(' ')) || field.endsWith(QLatin1Char(' '));
    if (!quote)
        return field;
    QString out = field;
    out.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + out + QLatin1Char('"');
}

void CsvWriter::addRow(const QStringList &fields)
{
    Q_ASSERT(fields.size() == m_columns);
    QString line;
    for (qsizetype i = 0; i < fields.size(); ++i) {
        if (i)
            line += QLatin1Char(',');
        line += escape(fields[i]);
    }
    line += QStringLiteral("\r\n");
    m_bytes += line.toUtf8();
    ++m_rows;
    if (m_device && m_bytes.size() >= 64 * 1024)
        flush();
}

} // namespace oe
