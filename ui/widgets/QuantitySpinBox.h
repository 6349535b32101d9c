#pragma once

#include <QSpinBox>

#include <cstdint>
#include <optional>

namespace oe {

// A threshold's number box. In bytes it takes units as people type them ("8 MiB", "1.5 KB",
// "40000", "40,000 B") and refuses any other (a unit it does not know never becomes bytes);
// it shows exact bytes. The arrow keys step by about a tenth of the value's order of
// magnitude (40,000 → 41,000), not by one. A number out of range is never cut short while it
// is typed: on Enter one above the maximum or below the minimum leaves the value as it was, and
// noteChanged() says so in words (above the maximum, ThresholdRange's: the CLI's words).
class QuantitySpinBox : public QSpinBox
{
    Q_OBJECT
public:
    enum class Unit
    {
        Bytes,
        Elements
    };
    explicit QuantitySpinBox(Unit unit, QWidget *parent = nullptr);

    // "8 MiB" → 8388608; nullopt when it is not a number with a known unit (B, KB, MB, GB,
    // KiB, MiB, GiB; any case; the locale's or C's decimal point and group separators).
    static std::optional<std::uint64_t> parseBytes(const QString &text);
    static int stepFor(int value);

    void stepBy(int steps) override;

signals:
    // What became of the last number typed, when it was not taken as typed; empty once the
    // user edits again.
    void noteChanged(const QString &note);

protected:
    void fixup(QString &input) const override;
    QValidator::State validate(QString &text, int &pos) const override;
    int valueFromText(const QString &text) const override;
    QString textFromValue(int value) const override;

private:
    // The number typed in the box's unit, out of range or not; nullopt when it is no number.
    std::optional<double> typed(const QString &text) const;
    QString withAffixes(int value) const;

    Unit m_unit;
};

} // namespace oe
