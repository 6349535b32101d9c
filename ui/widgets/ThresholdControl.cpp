#include "widgets/ThresholdControl.h"

#include "analysis/ThresholdRange.h"
#include "widgets/QuantitySpinBox.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

namespace oe {

ThresholdControl::ThresholdControl(const QString &label, const QString &suffix, QWidget *parent)
    : QWidget(parent), m_spin(new QuantitySpinBox(suffix.trimmed() == QLatin1String("B")
                                                      ? QuantitySpinBox::Unit::Bytes
                                                      : QuantitySpinBox::Unit::Elements,
                                                  this)),
      m_button(new QPushButton(tr("Use reco&mmended"), this)), m_counters(new QLabel(this)),
      m_note(new QLabel(this))
{
    // The box, its button and note on one line; the counters under them, the whole width
    // (beside the box they wrapped into a narrow column on a small window).
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->setSpacing(2);
    auto *layout = new QHBoxLayout;
    layout->setContentsMargins(0, 0, 0, 0);
    outer->addLayout(layout);
    auto *caption = new QLabel(label, this);
    caption->setBuddy(m_spin);
    layout->addWidget(caption);
    m_spin->setRange(0, int(ThresholdRange::kMaximum)); // the CLI's limit too
    if (suffix.trimmed() != QLatin1String("B"))
        m_spin->setSuffix(suffix); // bytes show their unit themselves
    m_spin->setGroupSeparatorShown(true);
    m_spin->setKeyboardTracking(false);
    m_spin->setAccelerated(true);
    m_spin->setToolTip(tr("Values strictly above this are outliers. Type a number, or drag the "
                          "dashed line in the chart."));
    // The box keeps its width whether the note shows or not (it used to give the note room).
    m_spin->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    layout->addWidget(m_spin);
    m_button->setEnabled(false);
    m_button->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    layout->addWidget(m_button);
    m_note->setObjectName(QStringLiteral("thresholdNote"));
    m_note->setWordWrap(true);
    m_note->setVisible(false);
    QFont bold = m_note->font();
    bold.setBold(true);
    m_note->setFont(bold);
    layout->addWidget(m_note, 1);
    layout->addStretch(0); // the room the hidden note leaves stays empty
    m_counters->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_counters->setWordWrap(true);
    outer->addWidget(m_counters);
    // Any threshold may be typed (above the data's largest, nothing is over it); only what the
    // box cannot hold is changed, and the note says so.
    connect(m_spin, &QuantitySpinBox::noteChanged, this, [this](const QString &note) {
        m_note->setText(note);
        m_note->setVisible(!note.isEmpty());
    });

    connect(m_spin, &QSpinBox::valueChanged, this, [this](int v) {
        if (!m_setting)
            emit valueChanged(std::uint64_t(v));
    });
    connect(m_button, &QPushButton::clicked, this, [this] {
        if (!m_recommended)
            return;
        setValue(*m_recommended);
        emit valueChanged(*m_recommended);
    });
}

std::uint64_t ThresholdControl::value() const
{
    return std::uint64_t(m_spin->value());
}

void ThresholdControl::setValue(std::uint64_t value)
{
    m_setting = true;
    m_spin->setValue(int(std::min<std::uint64_t>(value, std::uint64_t(m_spin->maximum()))));
    m_setting = false;
}

void ThresholdControl::setRecommended(std::optional<std::uint64_t> value, const QString &why)
{
    m_recommended = value;
    m_button->setEnabled(value.has_value());
    m_button->setToolTip(value ? why : tr("No recommendation for this selection."));
}

void ThresholdControl::setCounters(const QString &text)
{
    m_counters->setText(text);
}

QString ThresholdControl::countersText() const
{
    return m_counters->text();
}

QString ThresholdControl::noteText() const
{
    return m_note->text();
}

} // namespace oe
