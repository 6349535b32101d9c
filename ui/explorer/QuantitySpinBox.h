#pragma once

#include <QSpinBox>

#include <cstdint>
#include <optional>

namespace oe {

// A threshold's number box. In bytes it takes units as people type them ("8 MiB", "1.5 KB",
// "40000", "40,000 B") and refuses any other (a unit it does not know never becomes bytes);
// it shows exact bytes. The arrow keys step by about a tenth of the value's order of
// magnitude (40,000 → 41,000), not by one.
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

protected:
    QValidator::State validate(QString &text, int &pos) const override;
    int valueFromText(const QString &text) const override;
    QString textFromValue(int value) const override;

private:
    Unit m_unit;
};

} // namespace oe
