#include "export/ReportPdfPainter.h"

#include <QAbstractTextDocumentLayout>
#include <QCoreApplication>
#include <QPageLayout>
#include <QPainter>
#include <QPdfWriter>
#include <QTextDocument>

namespace oe {

namespace {

constexpr int kDpi = 96;    // layout units: CSS pixels, so fonts and charts keep their sizes
constexpr int kFooter = 24; // room for the page number

class Pages
{
public:
    Pages(QPdfWriter &writer, QPainter &painter)
        : m_writer(writer), m_painter(painter), m_width(writer.width()),
          m_height(writer.height() - kFooter)
    {
    }

    int width() const { return m_width; }

    void text(const QString &html)
    {
        QTextDocument doc;
        doc.documentLayout()->setPaintDevice(&m_writer);
        doc.setDefaultFont(QFont(QStringLiteral("DejaVu Sans"), 9));
        doc.setDefaultStyleSheet(QStringLiteral(
            "th{background:#eee} td,th{padding:2px} h1{font-size:16pt} h2{font-size:12pt}"));
        doc.setHtml(html);
        doc.setTextWidth(m_width);
        const int height = int(doc.size().height());
        if (height > m_height - m_y && m_y > 0)
            newPage();
        // Taller than a page: drawn in page-high slices.
        for (int offset = 0; offset < height;) {
            const int slice = std::min(height - offset, m_height - m_y);
            m_painter.save();
            m_painter.translate(0, m_y - offset);
            doc.drawContents(&m_painter, QRectF(0, offset, m_width, slice));
            m_painter.restore();
            offset += slice;
            m_y += slice;
            if (offset < height)
                newPage();
        }
    }

    void chart(const ReportChart &c)
    {
        const double scale = double(m_width) / c.size.width();
        const int height = int(c.size.height() * scale);
        if (height > m_height - m_y && m_y > 0)
            newPage();
        m_painter.save();
        m_painter.translate(0, m_y);
        m_painter.scale(scale, scale);
        m_painter.drawPicture(0, 0, c.picture);
        m_painter.restore();
        m_y += height + 8;
    }

    void finish() { footer(); }

private:
    void footer()
    {
        m_painter.save();
        m_painter.setPen(Qt::darkGray);
        m_painter.setFont(QFont(QStringLiteral("DejaVu Sans"), 8));
        m_painter.drawText(QRect(0, m_height, m_width, kFooter), Qt::AlignRight | Qt::AlignBottom,
                           QCoreApplication::translate("ReportPdfPainter", "page %1").arg(m_page));
        m_painter.restore();
    }

    void newPage()
    {
        footer();
        m_writer.newPage();
        ++m_page;
        m_y = 0;
    }

    QPdfWriter &m_writer;
    QPainter &m_painter;
    int m_width, m_height;
    int m_y = 0;
    int m_page = 1;
};

} // namespace

bool ReportPdfPainter::paint(QIODevice *device, ReportOptions::PageSize pageSize,
                             const QString &title, const std::vector<Block> &blocks, QString *error)
{
    QPdfWriter writer(device);
    writer.setResolution(kDpi);
    writer.setTitle(title);
    writer.setCreator(QStringLiteral("Outlier Explorer"));
    writer.setPageLayout(QPageLayout(
        QPageSize(pageSize == ReportOptions::PageSize::Letter ? QPageSize::Letter : QPageSize::A4),
        QPageLayout::Portrait, QMarginsF(15, 15, 15, 15), QPageLayout::Millimeter));
    QPainter painter;
    if (!painter.begin(&writer)) {
        *error = QCoreApplication::translate("ReportPdfPainter", "the PDF could not be started");
        return false;
    }
    Pages pages(writer, painter);
    for (const Block &b : blocks) {
        if (b.chart)
            pages.chart(*b.chart);
        else if (!b.html.isEmpty())
            pages.text(b.html);
    }
    pages.finish();
    if (!painter.end()) {
        *error = QCoreApplication::translate("ReportPdfPainter", "the PDF could not be finished");
        return false;
    }
    return true;
}

} // namespace oe
