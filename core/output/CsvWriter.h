#pragma once

#include <QByteArray>
#include <QIODevice>
#include <QString>
#include <QStringList>

namespace oe {

// RFC 4180 CSV: CRLF line ends, fields quoted when they hold a comma, quote, CR or LF (or
// leading/trailing space), quotes doubled. UTF-8, no byte-order mark. A text cell a spreadsheet
// would run as a formula (=, +, -, @, a tab or CR first: a field named "=HYPERLINK(…)") starts
// with an apostrophe; numbers stay numbers.
class CsvWriter
{
public:
    // In memory: the text accumulates in bytes().
    explicit CsvWriter(const QStringList &header);
    // Streaming: rows go to `device` as they are added (bytes() holds only what is pending).
    CsvWriter(QIODevice *device, const QStringList &header);
    ~CsvWriter();
    CsvWriter(const CsvWriter &) = delete;
    CsvWriter &operator=(const CsvWriter &) = delete;

    void addRow(const QStringList &fields);
    // Writes what is pending to the device; false if the device refused it.
    bool flush();
    const QByteArray &bytes() const { return m_bytes; }
    int rows() const { return m_rows; }

    static QString escape(const QString &field);
    static QString defused(const QString &field);

private:
    QIODevice *m_device = nullptr;
    QByteArray m_bytes;
    bool m_failed = false;
    int m_columns;
    int m_rows = 0;
};

} // namespace oe
