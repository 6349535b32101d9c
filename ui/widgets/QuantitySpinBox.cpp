#include "widgets/QuantitySpinBox.h"

#include "analysis/ThresholdRange.h"

#include <QLineEdit>
#include <QLocale>
#include <QRegularExpression>

#include <algorithm>
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
    connect(lineEdit(), &QLineEdit::textEdited, this, [this] { emit noteChanged({}); });
}

std::optional<double> QuantitySpinBox::typed(const QString &text) const
{
    QString t = text;
    if (!suffix().isEmpty() && t.endsWith(suffix()))
        t.chop(suffix().size());
    t = t.trimmed();
    const bool negative = t.startsWith(QLatin1Char('-'));
    if (negative || t.startsWith(QLatin1Char('+')))
        t = t.mid(1).trimmed();
    std::optional<double> magnitude;
    if (m_unit == Unit::Bytes) {
        if (const auto bytes = parseBytes(t))
            magnitude = double(*bytes);
    } else {
        // Whole counts: digits, grouped as the locale groups them ("5,000", "5 000").
        t.remove(QLocale().groupSeparator());
        t.remove(QRegularExpression(QStringLiteral("[\\s\\x{00a0}\\x{202f}]")));
        static const QRegularExpression digits(QStringLiteral("^[0-9]+$"));
        bool ok = false;
        const double v = t.toDouble(&ok);
        if (digits.match(t).hasMatch() && ok)
            magnitude = v;
    }
    if (!magnitude)
        return std::nullopt;
    return negative ? -*magnitude : *magnitude;
}

QString QuantitySpinBox::withAffixes(int value) const
{
    return prefix() + textFromValue(value) + suffix();
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
    Q_UNUSED(pos);
    QString bare = text;
    if (!suffix().isEmpty() && bare.endsWith(suffix()))
        bare.chop(suffix().size());
    bare = bare.trimmed();
    if (bare.isEmpty() || bare == QLatin1String("-") || bare == QLatin1String("+"))
        return QValidator::Intermediate;
    if (const auto v = typed(text))
        return *v >= double(minimum()) && *v <= double(maximum()) ? QValidator::Acceptable
                                                                  : QValidator::Intermediate;
    const QRegularExpressionMatch m =
        quantity().match(bare.startsWith(QLatin1Char('-')) ? bare.mid(1) : bare);
    if (m_unit == Unit::Bytes && m.hasMatch() && unitPrefix(m.captured(2)))
        return QValidator::Intermediate;
    return QValidator::Invalid;
}

// On Enter, a number out of range: above the maximum it becomes the maximum, below the minimum
// the value stays; either way the note says what happened to what was typed.
void QuantitySpinBox::fixup(QString &input) const
{
    const auto v = typed(input);
    if (!v)
        return; // not a number: the box goes back to its value
    QString shown = input.trimmed();
    if (!suffix().isEmpty() && shown.endsWith(suffix()))
        shown.chop(suffix().size());
    shown = shown.trimmed();
    QString note;
    if (*v > double(maximum())) {
        // Refused as the CLI refuses it, in the same words (one rule: ThresholdRange).
        input = withAffixes(value());
        note = ThresholdRange::aboveMaximum(shown);
    } else if (*v < double(minimum())) {
        input = withAffixes(value());
        note = tr("%1 is below %2: the threshold stays %3.")
                   .arg(shown, textFromValue(minimum()), textFromValue(value()) + suffix());
    } else {
        return;
    }
    emit const_cast<QuantitySpinBox *>(this)->noteChanged(note.simplified());
}

int QuantitySpinBox::valueFromText(const QString &text) const
{
    const auto v = typed(text);
    if (!v || *v > double(maximum()))
        return value(); // above the largest: refused (fixup says so)
    return int(std::clamp(std::round(*v), double(minimum()), double(maximum())));
}

QString QuantitySpinBox::textFromValue(int value) const
{
    if (m_unit == Unit::Elements)
        return QSpinBox::textFromValue(value);
    return QLocale().toString(value) + QStringLiteral(" B");
}

} // namespace oe
