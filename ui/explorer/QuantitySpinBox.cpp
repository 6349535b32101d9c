#include "explorer/QuantitySpinBox.h"

#include <QLocale>
#include <QRegularExpression>

#include <cmath>
#include <limits>

namespace oe {

namespace {

std::optional<double> unitFactor(const QString &unit)
{
    const QString u = unit.toLower();
    if (u.isEmpty() || u == QLatin1String("b"))
        return 1.0;
    static const QList<QPair<QString, double>> units{
        {QStringLiteral("kb"), 1e3},        {QStringLiteral("mb"), 1e6},
        {QStringLiteral("gb"), 1e9},        {QStringLiteral("kib"), 1024.0},
        {QStringLiteral("mib"), 1048576.0}, {QStringLiteral("gib"), 1073741824.0}};
    for (const auto &[name, factor] : units)
        if (u == name)
            return factor;
    return std::nullopt;
}

// A unit being typed: a prefix of a known one.
bool unitPrefix(const QString &unit)
{
    const QString u = unit.toLower();
    for (const char *name : {"b", "kb", "mb", "gb", "kib", "mib", "gib"})
        if (QString::fromLatin1(name).startsWith(u))
            return true;
    return false;
}

const QRegularExpression &quantity()
{
    static const QRegularExpression re(
        QStringLiteral("^\\s*([0-9][0-9.,\\s\\x{00a0}\\x{202f}]*)\\s*([A-Za-z]*)\\s*$"));
    return re;
}

std::optional<double> number(QString digits)
{
    digits.remove(QRegularExpression(QStringLiteral("[\\s\\x{00a0}\\x{202f}]")));
    bool ok = false;
    double v = QLocale().toDouble(digits, &ok);
    if (!ok)
        v = QLocale::c().toDouble(digits, &ok);
    if (!ok) { // "40,000" in the C locale, "1.5" in a comma locale
        QString plain = digits;
        plain.remove(QLocale().groupSeparator());
        v = QLocale::c().toDouble(plain, &ok);
    }
    return ok ? std::optional<double>(v) : std::nullopt;
}

} // namespace

QuantitySpinBox::QuantitySpinBox(Unit unit, QWidget *parent) : QSpinBox(parent), m_unit(unit)
{
    setGroupSeparatorShown(true);
    if (unit == Unit::Bytes)
        setToolTip(tr("Bytes; units as you like: 8 MiB, 500 KB, 40000."));
}

std::optional<std::uint64_t> QuantitySpinBox::parseBytes(const QString &text)
{
    const QRegularExpressionMatch m = quantity().match(text);
    if (!m.hasMatch())
        return std::nullopt;
    const auto factor = unitFactor(m.captured(2));
    const auto value = number(m.captured(1));
    if (!factor || !value || *value < 0)
        return std::nullopt;
    const double bytes = std::round(*value * *factor);
    if (bytes > double(std::numeric_limits<std::uint64_t>::max() / 2))
        return std::nullopt;
    return std::uint64_t(bytes);
}

int QuantitySpinBox::stepFor(int value)
{
    if (value < 100)
        return 1;
    const int magnitude = int(std::floor(std::log10(double(value))));
    return int(std::pow(10.0, magnitude - 1));
}

void QuantitySpinBox::stepBy(int steps)
{
    const int v = value();
    // Down from a power of ten steps by the smaller magnitude (1,000 → 990, not 900).
    const int step = steps < 0 ? stepFor(std::max(v - 1, 0)) : stepFor(v);
    const qint64 next = qint64(v) + qint64(steps) * step;
    setValue(int(std::clamp<qint64>(next, minimum(), maximum())));
    selectAll();
}

QValidator::State QuantitySpinBox::validate(QString &text, int &pos) const
{
    if (m_unit == Unit::Elements)
        return QSpinBox::validate(text, pos);
    if (text.trimmed().isEmpty())
        return QValidator::Intermediate;
    if (const auto bytes = parseBytes(text))
        return *bytes <= std::uint64_t(maximum()) && *bytes >= std::uint64_t(minimum())
                   ? QValidator::Acceptable
                   : QValidator::Intermediate;
    const QRegularExpressionMatch m = quantity().match(text);
    if (m.hasMatch() && unitPrefix(m.captured(2)))
        return QValidator::Intermediate;
    return QValidator::Invalid;
}

int QuantitySpinBox::valueFromText(const QString &text) const
{
    if (m_unit == Unit::Elements)
        return QSpinBox::valueFromText(text);
    const auto bytes = parseBytes(text);
    return bytes ? int(std::min<std::uint64_t>(*bytes, std::uint64_t(maximum()))) : value();
}

QString QuantitySpinBox::textFromValue(int value) const
{
    if (m_unit == Unit::Elements)
        return QSpinBox::textFromValue(value);
    return QLocale().toString(value) + QStringLiteral(" B");
}

} // namespace oe
