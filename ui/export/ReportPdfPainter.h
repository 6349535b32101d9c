#pragma once

#include "export/ReportChart.h"
#include "export/ReportOptions.h"

#include <QIODevice>
#include <QString>

#include <vector>

namespace oe {

// Lays the report out on PDF pages with Qt's own printing support (QPdfWriter): rich-text
// blocks (QTextDocument) and charts (their recorded vector drawing, scaled to the text width),
// each block on the page that still has room for it (a chart with its heading and caption), a block
// taller than a page cut across pages. Page numbers at the foot.
class ReportPdfPainter
{
public:
    // Rich text, or a chart with the rich text above it (its heading) and below it (its
    // caption): a chart block is kept on one page whole.
    struct Block
    {
        QString html;
        const ReportChart *chart{};
        QString after;

        static Block text(QString html) { return {std::move(html), nullptr, {}}; }
    };

    // False with a one-line reason when the device refused the PDF.
    static bool paint(QIODevice *device, ReportOptions::PageSize pageSize, const QString &title,
                      const std::vector<Block> &blocks, QString *error);
};

} // namespace oe
