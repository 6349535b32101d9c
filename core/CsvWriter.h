#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace oe {

// RFC 4180 CSV: CRLF line ends, fields quoted when they hold a comma, quote, CR or LF (or
// leading/trailing space), quotes doubled. UTF-8, no byte-order mark.
class CsvWriter
{
public:
    explicit CsvWriter(const QStringList &header);
    void addRow(const QStringList &fields);
    const QByteArray &bytes() const { return m_bytes; }
    int rows() const { return m_rows; }

    static QString escape(const QString &field);

private:
    QByteArray m_bytes;
    int m_columns;
    int m_rows = 0;
};

} // namespace oe
