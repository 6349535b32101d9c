#pragma once

#include <QByteArray>
#include <QPicture>
#include <QSize>
#include <QString>

namespace oe {

// One chart of the shareable report, rendered on the GUI thread from a QCustomPlot: as SVG
// for the HTML and as a recorded picture (vector drawing commands) for the PDF. A value type:
// the report itself is then written on any thread.
struct ReportChart
{
    QString title;
    QString caption;
    QSize size;
    QByteArray svg; // the <svg> element, made safe to inline (SafeSvg)
    QPicture picture;
};

} // namespace oe
