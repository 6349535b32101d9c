#pragma once

#include "remedy/RewriteConfig.h"

#include <QWidget>

class QLineEdit;
class QSpinBox;

namespace oe {

// An extraction's settings in the Rewrite dialog: the smallest value moved, the excerpt kept (a
// string's first characters, a sub-document's keys), the side collection and the flag (empty:
// their defaults, shown as placeholders).
class ExtractOptionsBox : public QWidget
{
    Q_OBJECT

public:
    ExtractOptionsBox(const RewriteConfig &suggested, QWidget *parent = nullptr);

    void applyTo(RewriteConfig *config) const;

private:
    QSpinBox *m_minBytes;
    QSpinBox *m_excerptChars;
    QLineEdit *m_excerptKeys;
    QLineEdit *m_side;
    QLineEdit *m_flag;
};

} // namespace oe
