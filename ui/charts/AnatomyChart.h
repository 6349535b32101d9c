#pragma once

#include "bson/SizeAnatomy.h"

#include <qcustomplot.h>

namespace oe {

// A document's size anatomy as horizontal bars: its heaviest top-level fields (the rest in
// one bar), each labelled with its bytes and share of the document, the field that holds the
// weight below them in the title. QCustomPlot; the bars' figures are SizeAnatomy's.
class AnatomyChart : public QCustomPlot
{
    Q_OBJECT
public:
    explicit AnatomyChart(QWidget *parent = nullptr);
    void setAnatomy(const SizeAnatomy &anatomy, const QString &title);
    void clearAnatomy(const QString &note);
    // The bars drawn, top to bottom: label and bytes.
    const std::vector<SizeAnatomy::Part> &bars() const { return m_bars; }
    static constexpr std::size_t kBars = 10;

private:
    QCPBars *m_series;
    QCPTextElement *m_title;
    std::vector<SizeAnatomy::Part> m_bars;
};

} // namespace oe
