#pragma once

#include "widgets/QuantitySpinBox.h"

#include <QWidget>

#include <cstdint>
#include <optional>

class QLabel;
class QPushButton;

namespace oe {

// The threshold's number: a spin box, a "Use recommended" button and the live counters of
// what the threshold catches. The chart's line, this box and the button stay in sync through
// setValue()/valueChanged(); setValue() from outside never echoes back.
class ThresholdControl : public QWidget
{
    Q_OBJECT
public:
    explicit ThresholdControl(const QString &label, const QString &suffix,
                              QWidget *parent = nullptr);

    std::uint64_t value() const;
    void setValue(std::uint64_t value);
    // The recommendation the button applies, with its reasoning as the button's tooltip.
    void setRecommended(std::optional<std::uint64_t> value, const QString &why);
    std::optional<std::uint64_t> recommended() const { return m_recommended; }
    void setCounters(const QString &text);
    QString countersText() const;
    // What became of a number typed out of the box's range (empty when it was taken as typed).
    QString noteText() const;

    QuantitySpinBox *spinBox() const { return m_spin; }
    QPushButton *recommendedButton() const { return m_button; }

signals:
    void valueChanged(std::uint64_t value); // by the user (typing or the button)

private:
    QuantitySpinBox *m_spin;
    QPushButton *m_button;
    QLabel *m_counters;
    QLabel *m_note;
    std::optional<std::uint64_t> m_recommended;
    bool m_setting = false;
};

} // namespace oe
