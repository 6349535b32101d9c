#include "export/ReportPdfPainter.h"

#include <QAbstractTextDocumentLayout>
#include <QCoreApplication>
#include <QPageLayout>
#include <QPainter>
#include <QPdfWriter>
#include <QTextBlock>
#include <QTextDocument>

#include <algorithm>
#include <memory>

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
        const auto doc = layout(html);
        const int height = heightOf(*doc);
        if (height > m_height - m_y && m_y > 0)
            newPage();
        if (height <= m_height - m_y) {
            draw(*doc);
            return;
        }
        // Taller than a page: Qt's own pagination, which moves a line or table row that would
        // straddle a page's foot onto the next page instead of cutting through it.
        doc->setPageSize(QSizeF(m_width, m_height));
        const int pages = doc->pageCount();
        for (int page = 0; page < pages; ++page) {
            if (page > 0)
                newPage();
            m_painter.save();
            m_painter.translate(0, -page * m_height);
            doc->drawContents(&m_painter, QRectF(0, page * m_height, m_width, m_height));
            m_painter.restore();
        }
        const qreal bottom = doc->documentLayout()->blockBoundingRect(doc->lastBlock()).bottom();
        m_y = std::clamp(int(bottom) - (pages - 1) * m_height, 0, m_height);
    }

    // A chart with its heading and caption, together on one page.
    void chart(const QString &before, const ReportChart &c, const QString &after)
    {
        const auto head = layout(before);
        const auto foot = layout(after);
        const double scale = double(m_width) / c.size.width();
        const int height = int(c.size.height() * scale);
        const int whole = heightOf(*head) + height + 8 + heightOf(*foot);
        if (whole > m_height - m_y && m_y > 0)
            newPage();
        draw(*head);
        m_painter.save();
        m_painter.translate(0, m_y);
        m_painter.scale(scale, scale);
        m_painter.drawPicture(0, 0, c.picture);
        m_painter.restore();
        m_y += height + 8;
        draw(*foot);
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

    std::unique_ptr<QTextDocument> layout(const QString &html) const
    {
        auto doc = std::make_unique<QTextDocument>();
        doc->documentLayout()->setPaintDevice(&m_writer);
        doc->setDefaultFont(QFont(QStringLiteral("DejaVu Sans"), 9));
        doc->setDefaultStyleSheet(QStringLiteral(
            "th{background:#eee} td,th{padding:2px} h1{font-size:16pt} h2{font-size:12pt}"));
        doc->setHtml(html);
        doc->setTextWidth(m_width);
        return doc;
    }

    static int heightOf(const QTextDocument &doc)
    {
        return doc.isEmpty() ? 0 : int(doc.size().height());
    }

    // A short block where the page has room for it.
    void draw(QTextDocument &doc)
    {
        const int height = heightOf(doc);
        if (height == 0)
            return;
        m_painter.save();
        m_painter.translate(0, m_y);
        doc.drawContents(&m_painter, QRectF(0, 0, m_width, height));
        m_painter.restore();
        m_y += height;
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
            pages.chart(b.html, *b.chart, b.after);
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
