#pragma once

#include <QMap>
#include <QString>

namespace fixtures {

// summary.csv of an analyze run (metric,value rows), read with the tests' own CSV reader: the
// one place tests look a metric up.
class SummaryCsv
{
public:
    // Reads DIR/summary.csv; an unreadable file gives an empty summary.
    static SummaryCsv read(const QString &dir);

    bool isEmpty() const { return m_values.isEmpty(); }
    bool contains(const QString &metric) const { return m_values.contains(metric); }
    // The metric's value, or "<missing>" so that a comparison names what was not there.
    QString value(const QString &metric) const
    {
        return m_values.value(metric, QStringLiteral("<missing>"));
    }
    double number(const QString &metric) const { return value(metric).toDouble(); }
    const QMap<QString, QString> &values() const { return m_values; }

private:
    QMap<QString, QString> m_values;
};

} // namespace fixtures
