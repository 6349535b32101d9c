#include "export/ReportDocument.h"

#include "analysis/ThresholdImpact.h"
#include "bson/DocumentId.h"
#include "charts/Format.h"
#include "charts/VersionsText.h"
#include "export/ReportPdfPainter.h"
#include "output/StagedOutput.h"
#include "report/OutlierDocument.h"
#include "report/ReportWriter.h"
#include "report/ShapeCsv.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <iterator>

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

// A cell's text for a PDF: a break allowed after each '.', '_' or '/' of a long name, so a
// narrow column breaks "customers_purchases" at "customers_", never as "customers_purchase d".
QString breakable(const QString &escaped)
{
    QString out;
    out.reserve(escaped.size() + escaped.size() / 8);
    for (const QChar c : escaped) {
        out += c;
        if (c == QLatin1Char('.') || c == QLatin1Char('_') || c == QLatin1Char('/'))
            out += QChar(0x200B); // ZERO WIDTH SPACE: a break opportunity, nothing drawn
    }
    return out;
}

} // namespace

QString ReportDocument::row(const QStringList &cells, bool header) const
{
    QString out = QStringLiteral("<tr>");
    for (const QString &c : cells) { // long values (a megabyte _id) shortened: see Format
        QString text = esc(Format::shortened(c, 1000));
        if (m_medium == Medium::Pdf)
            text = breakable(text);
        out += header ? QStringLiteral("<th>%1</th>").arg(text)
                      : QStringLiteral("<td>%1</td>").arg(text);
    }
    return out + QStringLiteral("</tr>");
}

ReportDocument::ReportDocument(const AnalysisResult &result, std::vector<ReportChart> charts,
                               ReportOptions options)
    : m_result(result), m_charts(std::move(charts)), m_options(std::move(options))
{
}

QString ReportDocument::header() const
{
    const CollectionProfile &p = m_result.profile;
    // A server-side measurement is named partial before anything else it shows.
    const QString partial =
        p.measuredOnServer
            ? QStringLiteral("<p class=\"warning\"><b>%1</b></p>")
                  .arg(esc(tr("Partial analysis: the server measured document sizes and arrays "
                              "only; the other fields and the shape were not measured.")))
            : QString();
    return QStringLiteral("<h1>%1</h1>%3<p>%2</p>")
        .arg(esc(tr("Outlier report: %1").arg(p.source)),
             esc(tr("%1 documents analysed (%2) in %3 s · generated %4 by Outlier Explorer %5")
                     .arg(Format::count(p.documents), p.mode, QString::number(p.seconds, 'f', 2),
                          QDateTime::currentDateTimeUtc().toString(Qt::ISODate),
                          QCoreApplication::applicationVersion())),
             partial);
}

// summary.csv, row for row, with the same text; for a full scan without the rows that only
// describe a sample (empty there).
QString ReportDocument::summaryTable() const
{
    QString out =
        QStringLiteral(
            "<h2>%1</h2><table class=\"summary\" border=\"1\" cellspacing=\"0\" cellpadding=\"3\">")
            .arg(esc(tr("Summary")));
    out += row({QStringLiteral("metric"), QStringLiteral("value")}, true);
    for (const auto &[metric, value] :
         ReportWriter::summaryRows(ReportWriter::Report::of(m_result, m_options.topK),
                                   ReportWriter::SampleRows::WhenSampled))
        out += row({metric, value});
    return out + QStringLiteral("</table>");
}

// The outliers a document at a time (a document over the size threshold with an outlier
// array is one row with both): the largest documents, then the longest arrays, so neither
// kind hides the other.
QString ReportDocument::outlierTable() const
{
    std::vector<OutlierDocument> documents = OutlierDocument::group(m_result.outliers.rows);
    const auto table = [&](const QString &title,
                           const std::vector<OutlierDocument> &rows) -> QString {
        QString out = QStringLiteral("<h3>%1</h3><table class=\"outliers\" border=\"1\" "
                                     "cellspacing=\"0\" cellpadding=\"3\">")
                          .arg(esc(title)) +
                      row({tr("_id"), tr("BSON size"), tr("longest outlier array"), tr("length"),
                           tr("reasons")},
                          true);
        for (qsizetype i = 0; i < qsizetype(rows.size()) && i < m_options.topK; ++i) {
            const OutlierDocument &d = rows[std::size_t(i)];
            out += row({d.id, Format::bytes(d.bsonSize), d.path,
                        d.path.isEmpty() ? QString() : Format::count(d.arrayLength),
                        d.reasons.join(QStringLiteral("; "))});
        }
        return out + QStringLiteral("</table>");
    };
    QString out = QStringLiteral("<h2>%1</h2>")
                      .arg(esc(tr("Outliers (%1 documents, %2 reasons)")
                                   .arg(m_result.outliers.outlierDocuments)
                                   .arg(m_result.outliers.rows.size())));
    const qsizetype shown = std::min<qsizetype>(m_options.topK, qsizetype(documents.size()));
    std::stable_sort(
        documents.begin(), documents.end(),
        [](const OutlierDocument &a, const OutlierDocument &b) { return a.bsonSize > b.bsonSize; });
    out += table(tr("The %1 largest").arg(shown), documents);
    std::vector<OutlierDocument> arrays;
    std::copy_if(documents.begin(), documents.end(), std::back_inserter(arrays),
                 [](const OutlierDocument &d) { return !d.path.isEmpty(); });
    std::stable_sort(arrays.begin(), arrays.end(),
                     [](const OutlierDocument &a, const OutlierDocument &b) {
                         return a.arrayLength > b.arrayLength;
                     });
    if (!arrays.empty())
        out += table(tr("The %1 longest arrays")
                         .arg(std::min<qsizetype>(m_options.topK, qsizetype(arrays.size()))),
                     arrays);
    return out;
}

// Two different numbers, each named for what it does: the outlier thresholds (what counts as
// an outlier) and, per array, the keep (how many elements stay in the document after a
// split): recommended, and the one chosen for the layout where one was.
QString ReportDocument::thresholdSection() const
{
    const OutlierReport &o = m_result.outliers;
    const std::optional<SplitConfig> &chosen = m_options.layout;
    QString out =
        QStringLiteral("<h2>%1</h2><p>%2</p><p>%3</p>")
            .arg(esc(tr("Thresholds and split")),
                 esc(tr("Outliers: documents over %1 (%2); arrays longer than %3.")
                         .arg(Format::bytes(o.size.value), o.size.rule,
                              o.arrayThresholdIsGlobal
                                  ? tr("%1 elements (%2)")
                                        .arg(Format::count(o.array.value), o.array.rule)
                                  : tr("a threshold per path"))),
                 esc(chosen ? tr("Split: keep %1 elements of %2 in each document (chosen); the "
                                 "rest move to %3. The keep is not the outlier threshold.")
                                  .arg(Format::count(chosen->keep), chosen->field,
                                       chosen->overflowCollection)
                            : tr("Split: the keep recommended per array below is how many "
                                 "elements stay in each document; it is not the outlier "
                                 "threshold.")));
    out +=
        QStringLiteral(
            "<table class=\"recommendations\" border=\"1\" cellspacing=\"0\" cellpadding=\"3\">") +
        row(chosen ? QStringList{tr("array"), tr("recommended keep"), tr("chosen keep"),
                                 tr("documents over"), tr("elements that move"), tr("why")}
                   : QStringList{tr("array"), tr("recommended keep"), tr("documents over"),
                                 tr("elements that move"), tr("why")},
            true);
    for (const SplitRecommendation &r : m_result.recommendations) {
        const QString path = QString::fromStdString(r.path);
        const QString recommended = r.splittable ? Format::count(r.keep) : tr("cannot split");
        const FieldProfile *field = m_result.profile.field(r.path);
        if (!chosen) {
            out += row({path, recommended, Format::count(r.documentsOver),
                        Format::count(r.elementsMoved), r.explanation});
            continue;
        }
        // At the chosen keep, for the chosen array: what that keep moves.
        const bool isChosen = chosen->field == path && field;
        const ThresholdImpact impact =
            isChosen ? ThresholdImpact::forArray(m_result.profile, *field, chosen->keep)
                     : ThresholdImpact{};
        const QString about = impact.exact ? QString() : tr("about ");
        out += row({path, recommended, isChosen ? Format::count(chosen->keep) : QString(),
                    isChosen ? about + Format::count(impact.documentsOver)
                             : Format::count(r.documentsOver),
                    isChosen ? about + Format::count(impact.elementsMoved)
                             : Format::count(r.elementsMoved),
                    r.explanation});
    }
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

// shape_outliers.csv, row for row and text for text, after a line on the per-document
// thresholds; or why the shape was not measured.
QString ReportDocument::shapeSection() const
{
    const ShapeReport &shape = m_result.shape;
    QString out = QStringLiteral("<h2>%1</h2>").arg(esc(tr("Shape")));
    if (!shape.measured)
        return out +
               QStringLiteral("<p class=\"note\">%1</p>")
                   .arg(esc(shape.why.isEmpty() ? tr("The shape was not measured.") : shape.why));
    out += QStringLiteral("<p>%1</p>")
               .arg(esc(QCoreApplication::translate(
                            "ReportDocument",
                            "%n schema outliers of shape. Documents with more than %1 fields "
                            "(%2) or nested deeper than %3 levels (%4) are outliers.",
                            nullptr, int(shape.listed().size() - shape.explained()))
                            .arg(Format::count(shape.fieldCountThreshold.value),
                                 shape.fieldCountThreshold.rule,
                                 Format::count(shape.depthThreshold.value),
                                 shape.depthThreshold.rule)));
    out += versionsParagraph();
    const std::vector<ShapeFlag> listed = shape.listed();
    if (listed.empty())
        return out;
    // A page has no room for twelve columns: the PDF leaves out the document numbers and the
    // query (the CSV and the HTML have them).
    const QList<qsizetype> pdf = {0, 1, 2, 3, 4, 5, 6, 7, 10, 11};
    const auto cut = [&](const QStringList &cells) {
        if (m_medium != Medium::Pdf)
            return cells;
        QStringList kept;
        for (qsizetype c : pdf)
            kept << cells.value(c);
        return kept;
    };
    out +=
        QStringLiteral("<table class=\"shape\" border=\"1\" cellspacing=\"0\" cellpadding=\"3\">") +
        row(cut(ShapeCsv::header()), true);
    for (const ShapeFlag &flag : listed)
        out += row(cut(ShapeCsv::row(flag)));
    return out + QStringLiteral("</table>");
}

// The schema versions: the field, each version's share, and the shares' movement.
QString ReportDocument::versionsParagraph() const
{
    const SchemaVersions &v = m_result.shape.versions;
    if (!v.inEffect())
        return v.note.isEmpty() ? QString()
                                : QStringLiteral("<p class=\"note\">%1</p>").arg(esc(v.note));
    QString text =
        QCoreApplication::translate(
            "ReportDocument",
            "Schema versions by %1: %2. Rare fields and mixed types are judged within each "
            "version; %n of the whole collection's flags are differences between versions, "
            "explained, not counted.",
            nullptr, int(m_result.shape.explained()))
            .arg(QString::fromStdString(v.field), VersionsText::shares(v));
    if (v.history.size() >= 2)
        text += QLatin1Char(' ') + VersionsText::history(v);
    return QStringLiteral("<p>%1</p>").arg(esc(text));
}

// Why the largest outlier documents are big: anatomy.csv's figures, in words.
QString ReportDocument::anatomySection() const
{
    if (m_options.anatomy.empty())
        return {};
    QString out = QStringLiteral("<h2>%1</h2><table class=\"anatomy\" border=\"1\" "
                                 "cellspacing=\"0\" cellpadding=\"3\">")
                      .arg(esc(tr("Size anatomy of the largest outliers")));
    out += row({tr("_id"), tr("BSON size"), tr("weight in"), tr("type"), tr("bytes"), tr("share"),
                tr("heaviest top-level fields")},
               true);
    for (const AnatomyReport::Entry &e : m_options.anatomy) {
        const SizeAnatomy &a = e.anatomy;
        QStringList top;
        for (const SizeAnatomy::Part &p : a.top(3))
            top << QStringLiteral("%1 %2").arg(p.key, Format::bytes(std::uint64_t(p.bytes)));
        out +=
            e.error.isEmpty()
                ? row({e.document.id, Format::bytes(e.document.bsonSize), a.heaviestPath,
                       a.heaviest.type, Format::bytes(std::uint64_t(a.heaviest.bytes)),
                       Format::percent(a.share(a.heaviest.bytes)), top.join(QStringLiteral("; "))})
                : row({e.document.id, Format::bytes(e.document.bsonSize), e.error, QString(),
                       QString(), QString(), QString()});
    }
    return out + QStringLiteral("</table>");
}

QString ReportDocument::forecastSection() const
{
    if (m_options.forecast.isEmpty())
        return {};
    QString out = QStringLiteral("<h2>%1</h2><ul>").arg(esc(tr("Growth forecast")));
    for (const QString &line : m_options.forecast)
        out += QStringLiteral("<li>%1</li>").arg(esc(line));
    return out + QStringLiteral("</ul>");
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
           header() + summaryTable() + forecastSection() + charts + outlierTable() +
           shapeSection() + anatomySection() + thresholdSection() + migrationSection() +
           QStringLiteral("\n</body></html>\n");
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
    ReportDocument pdf(*this);
    pdf.m_medium = Medium::Pdf;
    // A chart's heading, drawing and caption are one block: a page never ends on a heading.
    using Block = ReportPdfPainter::Block;
    std::vector<Block> blocks{
        Block::text(pdf.header() + pdf.summaryTable() + pdf.forecastSection())};
    QString heading = QStringLiteral("<h2>%1</h2>").arg(esc(tr("Distributions")));
    for (const ReportChart &c : m_charts) {
        const QString title = heading + QStringLiteral("<p><b>%1</b></p>").arg(esc(c.title));
        blocks.push_back({title, &c, QStringLiteral("<p>%1</p>").arg(esc(c.caption))});
        heading.clear();
    }
    if (!heading.isEmpty())
        blocks.push_back(Block::text(heading));
    blocks.push_back(Block::text(pdf.outlierTable()));
    blocks.push_back(Block::text(pdf.shapeSection()));
    blocks.push_back(Block::text(pdf.anatomySection()));
    blocks.push_back(Block::text(pdf.thresholdSection()));
    blocks.push_back(Block::text(pdf.migrationSection()));
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
