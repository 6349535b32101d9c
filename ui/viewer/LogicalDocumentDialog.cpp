#include "viewer/LogicalDocumentDialog.h"

#include "bson/DocumentOutline.h"
#include "charts/Format.h"
#include "jobs/LatestJob.h"
#include "migration/MigrationHistory.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

namespace oe {

namespace {

constexpr qsizetype kShownChars = 256 * 1024; // more would hold the window while it lays out

struct Loaded
{
    SplitConfig config;
    LogicalDocument document;
    QString json;
};

// The layout the collection was split with: its journal's newest run (the names a split
// really used), else the one given (the analysis' choice). Blocking.
SplitConfig splitLayout(const SourceRef &source, const SplitConfig &given)
{
    MigrationRuns runs;
    SourceError error;
    if (MigrationHistory::runs(source.settings, {source.database}, &runs, &error))
        for (const MigrationRun &run : runs) // newest first
            if (run.database == source.database && run.config.collection == source.collection)
                return run.config.withDefaults();
    return given.withDefaults();
}

} // namespace

LogicalDocumentDialog::LogicalDocumentDialog(QWidget *parent)
    : QDialog(parent), m_summary(new QLabel(tr("Reading the document and its pages…"), this)),
      m_places(new QTableWidget(0, 3, this)), m_json(new QPlainTextEdit(this)),
      m_job(new LatestJob(this))
{
    setWindowTitle(tr("Logical document"));
    resize(820, 620);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_places->setHorizontalHeaderLabels({tr("where"), tr("elements"), tr("count")});
    m_places->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_places->verticalHeader()->setVisible(false);
    m_places->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_json->setReadOnly(true);
    m_json->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_json->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_places);
    split->addWidget(m_json);
    split->setStretchFactor(1, 3);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(split, 1);
    layout->addWidget(buttons);
}

void LogicalDocumentDialog::load(const SourceRef &source, const SplitConfig &config,
                                 const QString &idJson)
{
    setWindowTitle(tr("Logical document %1").arg(Format::shortened(idJson, 80)));
    m_job->start(
        [source, config, idJson] {
            Loaded out;
            out.config = splitLayout(source, config);
            out.document =
                LogicalDocument::load(source.settings, source.database, out.config, idJson);
            QString error;
            if (!out.document.stitched.isEmpty())
                out.json = DocumentOutline::toIndentedJson(out.document.stitched, &error);
            return out;
        },
        [this](const Loaded &out) {
            showDocument(out.document, out.config);
            const qsizetype cut = std::min(out.json.size(), kShownChars);
            m_json->setPlainText(
                out.json.left(cut) +
                (cut < out.json.size()
                     ? tr("\n… (%1 more characters not shown)")
                           .arg(Format::count(std::uint64_t(out.json.size() - cut)))
                     : QString()));
            emit loaded(!out.document.error.isError());
        });
}

void LogicalDocumentDialog::showDocument(const LogicalDocument &document, const SplitConfig &config)
{
    m_document = document;
    if (document.error.isError()) {
        m_summary->setText(tr("Could not read the document: %1").arg(document.error.toString()));
        return;
    }
    const SplitConfig c = config.withDefaults();
    std::uint64_t inPages = 0;
    for (const auto &place : document.places)
        inPages += place.page >= 0 ? place.count : 0;
    m_summary->setText(
        document.split
            ? tr("<b>%1</b> as the application reads it: %2 elements of <b>%3</b>, %4 in the "
                 "primary and %5 in %6 page(s) of <i>%7</i>, stitched in page order (%8 in all).")
                  .arg(c.collection.toHtmlEscaped(), Format::count(document.elements),
                       c.field.toHtmlEscaped(), Format::count(document.places.front().count),
                       Format::count(inPages), Format::count(document.places.size() - 1),
                       c.overflowCollection.toHtmlEscaped(),
                       Format::bytes(std::uint64_t(document.stitched.size())))
            : tr("This document is not split (<b>%1</b> is not set): all %2 elements of <b>%3</b> "
                 "are in it.")
                  .arg(c.flagField.toHtmlEscaped(), Format::count(document.elements),
                       c.field.toHtmlEscaped()));
    m_places->setRowCount(int(document.places.size()));
    for (int r = 0; r < int(document.places.size()); ++r) {
        const LogicalDocument::Place &p = document.places[std::size_t(r)];
        const QString range =
            p.count == 0 ? QStringLiteral("—")
                         : QStringLiteral("%1–%2").arg(Format::count(p.first),
                                                       Format::count(p.first + p.count - 1));
        m_places->setItem(r, 0, new QTableWidgetItem(p.where));
        m_places->setItem(r, 1, new QTableWidgetItem(range));
        m_places->setItem(r, 2, new QTableWidgetItem(Format::count(p.count)));
    }
}

QString LogicalDocumentDialog::summaryText() const
{
    return m_summary->text();
}

QString LogicalDocumentDialog::jsonText() const
{
    return m_json->toPlainText();
}

} // namespace oe
