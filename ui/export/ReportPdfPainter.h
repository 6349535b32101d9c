#pragma once

#include "export/ReportChart.h"
#include "export/ReportOptions.h"

#include <QIODevice>
#include <QString>

#include <vector>

namespace oe {

// Lays the report out on PDF pages with Qt's own printing support (QPdfWriter): rich-text
// blocks (QTextDocument) and charts (their recorded vector drawing, scaled to the text width),
// each block on the page that still has room for it, a block taller than a page cut across
// pages. Page numbers at the foot.
class ReportPdfPainter
{
public:
    struct Block
    {
        QString html;               // a rich-text block, or
        const ReportChart *chart{}; // a chart
    };

    // False with a one-line reason when the device refused the PDF.
    static bool paint(QIODevice *device, ReportOptions::PageSize pageSize, const QString &title,
                      const std::vector<Block> &blocks, QString *error);
};

} // namespace oe
