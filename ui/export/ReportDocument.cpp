#include "export/ReportDocument.h"

#include "bson/DocumentId.h"
#include "charts/Format.h"
#include "export/ReportPdfPainter.h"
#include "output/StagedOutput.h"
#include "report/ReportWriter.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>

namespace oe {

namespace {

QString esc(const QString &text)
{
    return text.toHtmlEscaped();
}

QString tr(const char *text)
{
    return QCoreApplication::translate("ReportDocument", text);
}

const char kStyle[] =
    "body{font-family:'DejaVu Sans',Arial,sans-serif;max-width:60em;margin:2em auto;color:#222;"
    "font-size:10pt}h1{font-size:18pt}h2{font-size:13pt;margin-top:1.5em}"
    "table{border-collapse:collapse;margin:.5em 0}th,td{border:1px solid #bbb;padding:2px 6px;"
    "text-align:left;vertical-align:top}td.n{text-align:right}figure{margin:1em 0}"
    "figcaption{font-weight:bold}.chart svg{max-width:100%;height:auto}"
    "pre{background:#f4f4f4;padding:.5em;white-space:pre-wrap}.note{color:#555}";

// The report is one self-contained file: its own styles, inline SVG, no scripts and nothing
// fetched. Should a string from the data ever get past the escaping, the browser still runs
// no script, loads nothing and submits nothing.
const char kPolicy[] =
    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
    "style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'\">";

// An SVG document as an inline element: without its XML declaration.
QString inlineSvg(const QByteArray &svg)
{
    const qsizetype at = svg.indexOf("<svg");
    return QString::fromUtf8(at >= 0 ? svg.mid(at) : svg);
}

QString row(const QStringList &cells, bool header = false)
{
    QString out = QStringLiteral("<tr>");
    for (const QString &c : cells) // long values (a megabyte _id) shortened: see Format
        out += header ? QStringLiteral("<th>%1</th>").arg(esc(Format::shortened(c)))
                      : QStringLiteral("<td>%1</td>").arg(esc(Format::shortened(c)));
    return out + QStringLiteral("</tr>");
}

} // namespace

ReportDocument::ReportDocument(const AnalysisResult &result, std::vector<ReportChart> charts,
                               ReportOptions options)
    : m_result(result), m_charts(std::move(charts)), m_options(std::move(options))
{
}

QString ReportDocument::header() const
{
    const CollectionProfile &p = m_result.profile;
    return QStringLiteral("<h1>%1</h1><p>%2</p>")
        .arg(esc(tr("Outlier report: %1").arg(p.source)),
             esc(tr("%1 documents analysed (%2) in %3 s · generated %4 by Outlier Explorer %5")
                     .arg(Format::count(p.documents), p.mode, QString::number(p.seconds, 'f', 2),
                          QDateTime::currentDateTimeUtc().toString(Qt::ISODate),
                          QCoreApplication::applicationVersion())));
}

// summary.csv, row for row, with the same text.
QString ReportDocument::summaryTable() const
{
    QString out =
        QStringLiteral(
            "<h2>%1</h2><table class=\"summary\" border=\"1\" cellspacing=\"0\" cellpadding=\"3\">")
            .arg(esc(tr("Summary")));
    out += row({QStringLiteral("metric"), QStringLiteral("value")}, true);
    for (const auto &[metric, value] :
         ReportWriter::summaryRows(ReportWriter::Report::of(m_result, m_options.topK)))
        out += row({metric, value});
    return out + QStringLiteral("</table>");
}

QString ReportDocument::outlierTable() const
{
    const auto &rows = m_result.outliers.rows;
    QString out = QStringLiteral("<h2>%1</h2>")
                      .arg(esc(tr("Outliers (%1 of %2 reasons, %3 documents)")
                                   .arg(std::min<qsizetype>(m_options.topK, qsizetype(rows.size())))
                                   .arg(rows.size())
                                   .arg(m_result.outliers.outlierDocuments)));
    out += QStringLiteral(
               "<table class=\"outliers\" border=\"1\" cellspacing=\"0\" cellpadding=\"3\">") +
           row({tr("_id"), tr("BSON size"), tr("array"), tr("length"), tr("reason")}, true);
    for (qsizetype i = 0; i < qsizetype(rows.size()) && i < m_options.topK; ++i) {
        const OutlierRow &o = rows[std::size_t(i)];
        out += row({o.id, Format::bytes(o.bsonSize), o.path,
                    o.path.isEmpty() ? QString() : Format::count(o.arrayLength), o.detail});
    }
    return out + QStringLiteral("</table>");
}

QString ReportDocument::thresholdSection() const
{
    const OutlierReport &o = m_result.outliers;
    QString out = QStringLiteral("<h2>%1</h2><p>%2</p>")
                      .arg(esc(tr("Thresholds and split")),
                           esc(tr("Size threshold %1 (%2); array threshold %3.")
                                   .arg(Format::bytes(o.size.value), o.size.rule,
                                        o.arrayThresholdIsGlobal
                                            ? tr("%1 elements (%2)")
                                                  .arg(Format::count(o.array.value), o.array.rule)
                                            : tr("per path"))));
    out +=
        QStringLiteral(
            "<table class=\"recommendations\" border=\"1\" cellspacing=\"0\" cellpadding=\"3\">") +
        row({tr("array"), tr("keep"), tr("documents over"), tr("elements that move"), tr("why")},
            true);
    for (const SplitRecommendation &r : m_result.recommendations)
        out += row({QString::fromStdString(r.path),
                    r.splittable ? Format::count(r.keep) : tr("cannot split"),
                    Format::count(r.documentsOver), Format::count(r.elementsMoved), r.explanation});
    out += QStringLiteral("</table>");
    if (const auto &c = m_options.layout) {
        out += QStringLiteral("<p>%1</p><table class=\"layout\" border=\"1\" cellspacing=\"0\" "
                              "cellpadding=\"3\">")
                   .arg(esc(tr("Chosen layout:")));
        const QList<QPair<QString, QString>> names{
            {tr("array"), c->field},
            {tr("keep"), QString::number(c->keep)},
            {tr("page size"), QString::number(c->pageSize)},
            {tr("overflow collection"), c->overflowCollection},
            {tr("link field"), c->linkField},
            {tr("page field"), c->pageField},
            {tr("items field"), c->itemsField},
            {tr("flag field"), c->flagField},
            {tr("count field"), c->countField},
            {tr("pages field"), c->pagesField}};
        for (const auto &[name, value] : names)
            if (!value.isEmpty())
                out += row({name, value});
        out += QStringLiteral("</table>");
    }
    return out;
}

QString ReportDocument::migrationSection() const
{
    if (m_options.migrationLog.isEmpty() && m_options.verification.isEmpty())
        return {};
    QString out = QStringLiteral("<h2>%1</h2>").arg(esc(tr("Migration")));
    if (!m_options.verification.isEmpty())
        out += QStringLiteral("<p><b>%1</b></p>").arg(esc(m_options.verification));
    if (!m_options.migrationLog.isEmpty())
        out += QStringLiteral("<pre>%1</pre>").arg(esc(m_options.migrationLog));
    return out;
}

QString ReportDocument::html() const
{
    QString charts = QStringLiteral("<h2>%1</h2>").arg(esc(tr("Distributions")));
    for (const ReportChart &c : m_charts)
        charts += QStringLiteral("<figure class=\"chart\"><figcaption>%1</figcaption>%2"
                                 "<p class=\"note\">%3</p></figure>")
                      .arg(esc(c.title), inlineSvg(c.svg), esc(c.caption));
    return QStringLiteral("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                          "%3<title>%1</title><style>%2</style></head><body>\n")
               .arg(esc(tr("Outlier report: %1").arg(m_result.profile.source)),
                    QString::fromLatin1(kStyle), QString::fromLatin1(kPolicy)) +
           header() + summaryTable() + charts + outlierTable() + thresholdSection() +
           migrationSection() + QStringLiteral("\n</body></html>\n");
}

bool ReportDocument::write(const QString &path, QString *error) const
{
    if (!ReportOptions::isSupportedFile(path)) {
        *error =
            tr("unsupported report format '.%1': use .html or .pdf").arg(QFileInfo(path).suffix());
        return false;
    }
    return QFileInfo(path).suffix().toLower() == QLatin1String("pdf") ? writePdf(path, error)
                                                                      : writeHtml(path, error);
}

bool ReportDocument::writeHtml(const QString &path, QString *error) const
{
    SourceError failure;
    if (StagedOutput::writeFile(path, html().toUtf8(), &failure))
        return true;
    *error = tr("could not write %1: %2").arg(QDir::toNativeSeparators(path), failure.message);
    return false;
}

bool ReportDocument::writePdf(const QString &path, QString *error) const
{
    std::vector<ReportPdfPainter::Block> blocks{
        {header() + summaryTable(), nullptr},
        {QStringLiteral("<h2>%1</h2>").arg(esc(tr("Distributions"))), nullptr}};
    for (const ReportChart &c : m_charts) {
        blocks.push_back({QStringLiteral("<p><b>%1</b></p>").arg(esc(c.title)), nullptr});
        blocks.push_back({{}, &c});
        blocks.push_back({QStringLiteral("<p>%1</p>").arg(esc(c.caption)), nullptr});
    }
    blocks.push_back({outlierTable(), nullptr});
    blocks.push_back({thresholdSection(), nullptr});
    blocks.push_back({migrationSection(), nullptr});
    StagedOutput output;
    SourceError failure;
    QIODevice *out = output.add(path, &failure);
    QString problem;
    if (out && !ReportPdfPainter::paint(out, m_options.pageSize,
                                        tr("Outlier report: %1").arg(m_result.profile.source),
                                        blocks, &problem))
        failure.message = problem; // nothing committed: the staged file goes
    else if (out && output.commit(nullptr, &failure))
        return true;
    *error = tr("could not write %1: %2").arg(QDir::toNativeSeparators(path), failure.message);
    return false;
}

} // namespace oe
