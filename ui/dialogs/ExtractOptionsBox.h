#pragma once

#include "remedy/Remedy.h"
#include "remedy/RewriteConfig.h"

#include <QWidget>

class QCheckBox;
class QFormLayout;
class QLineEdit;
class QSpinBox;

namespace oe {

// An extraction's settings in the Rewrite dialog: the smallest value moved, the excerpt kept (a
// string's first characters, a sub-document's keys), the side collection and the flag (empty:
// their defaults, shown as placeholders); for GridFS, the bucket and whether strings go too.
class ExtractOptionsBox : public QWidget
{
    Q_OBJECT

public:
    ExtractOptionsBox(const RewriteConfig &suggested, QWidget *parent = nullptr);

    void applyTo(RewriteConfig *config) const;
    // The rows a remedy's options name (the side collection's, the bucket's); whether any.
    bool showFor(Remedy::Options options);

private:
    QSpinBox *m_minBytes;
    QSpinBox *m_excerptChars;
    QLineEdit *m_excerptKeys;
    QLineEdit *m_side;
    QLineEdit *m_flag;
    QLineEdit *m_bucket;
    QCheckBox *m_strings;
    QFormLayout *m_form;
};

} // namespace oe
