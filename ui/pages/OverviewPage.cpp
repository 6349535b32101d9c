#include "pages/OverviewPage.h"

#include "history/SourceForecast.h"
#include "jobs/LatestJob.h"

#include "analysis/SamplePrecision.h"
#include "charts/Format.h"

#include <QComboBox>
#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace oe {

namespace {

const char *const kKeys[] = {
    QT_TRANSLATE_NOOP("OverviewPage", "Documents"),
    QT_TRANSLATE_NOOP("OverviewPage", "Size p50"),
    QT_TRANSLATE_NOOP("OverviewPage", "Size p99"),
    QT_TRANSLATE_NOOP("OverviewPage", "Largest"),
    QT_TRANSLATE_NOOP("OverviewPage", "Over 8 MiB"),
    QT_TRANSLATE_NOOP("OverviewPage", "Outlier documents"),
};

// A sharded collection's outliers by shard, under the thresholds shown.
QString shardLine(const AnalysisResult &result)
{
    if (!result.sharding)
        return {};
    QStringList parts;
    for (const ShardBreakdown::Row &row : result.sharding->rows(result.outliers))
        parts << OverviewPage::tr("%1 %2 (%3 over)")
                     .arg(row.shard, Format::count(row.outlierDocuments),
                          Format::bytes(row.bytesOverThreshold));
    return QLatin1Char('\n') +
           OverviewPage::tr("Outliers by shard: %1").arg(parts.join(QStringLiteral(" · ")));
}

} // namespace

OverviewPage::OverviewPage(QWidget *parent)
    : SourcePage(parent), m_headline(new QLabel(this)), m_notes(new QLabel(this)),
      m_cards(new QWidget(this)), m_paths(new QTableWidget(0, 4, this)), m_next(new QLabel(this)),
      m_growth(new QLabel(this)), m_growthJob(new LatestJob(this)),
      m_precisionTarget(new QComboBox(this))
{
    auto *layout = new QVBoxLayout(this);
    QFont big = m_headline->font();
    big.setPointSizeF(big.pointSizeF() * 1.3);
    big.setBold(true);
    m_headline->setFont(big);
    m_headline->setWordWrap(true);
    layout->addWidget(m_headline);
    m_notes->setObjectName(QStringLiteral("notes"));
    m_notes->setWordWrap(true);
    m_notes->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_notes->hide();
    layout->addWidget(m_notes);
    m_growth->setObjectName(QStringLiteral("growth"));
    m_growth->setWordWrap(true);
    m_growth->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_growth->setToolTip(tr("From the analysis history: every analysis of this source, in the "
                            "window or with the CLI. Analysis → Trends… (Ctrl+T) charts it."));
    layout->addWidget(m_growth);

    auto *grid = new QGridLayout(m_cards);
    int column = 0;
    for (const char *key : kKeys) {
        auto *caption = new QLabel(tr(key), m_cards);
        caption->setEnabled(false);
        auto *value = new QLabel(m_cards);
        value->setObjectName(QString::fromLatin1(key));
        QFont f = value->font();
        f.setPointSizeF(f.pointSizeF() * 1.6);
        f.setBold(true);
        value->setFont(f);
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        auto *precision = new QLabel(m_cards);
        precision->setObjectName(QString::fromLatin1(key) + QStringLiteral(" precision"));
        precision->setTextInteractionFlags(Qt::TextSelectableByMouse);
        precision->setWordWrap(true); // never widens the cards past the window
        // Three cards a row: the window fits a small screen with no figure cut.
        const int row = (column / 3) * 3;
        grid->addWidget(caption, row, column % 3);
        grid->addWidget(value, row + 1, column % 3);
        grid->addWidget(precision, row + 2, column % 3);
        ++column;
    }
    m_precisionTarget->setObjectName(QStringLiteral("precisionTarget"));
    m_precisionTarget->setToolTip(
        tr("The precision of p99 to suggest a sample size for; the export's summary.csv says "
           "the same (p99_precision_target, sample_for_p99_target)."));
    for (const double points : {0.5, 0.2, 0.1, 0.05, 0.01})
        m_precisionTarget->addItem(tr("for p99 ±%1 pt").arg(points), points);
    m_precisionTarget->setCurrentIndex(2);
    m_precisionTarget->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    grid->addWidget(m_precisionTarget, ((column + 2) / 3) * 3, 0, Qt::AlignLeft);
    connect(m_precisionTarget, &QComboBox::activated, this, [this] {
        const double points = m_precisionTarget->currentData().toDouble();
        if (state())
            state()->setPrecisionTarget(points);
        showSampleSuggestion(points);
    });
    layout->addWidget(m_cards);

    auto *pathsTitle =
        new QLabel(tr("<b>Worst array paths</b> (double-click to open in Arrays)"), this);
    layout->addWidget(pathsTitle);
    m_paths->setHorizontalHeaderLabels(
        {tr("Field path"), tr("Max length"), tr("p99"), tr("Recommended keep")});
    m_paths->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_paths->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_paths->verticalHeader()->hide();
    m_paths->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_paths->setSelectionBehavior(QAbstractItemView::SelectRows);
    layout->addWidget(m_paths, 1);
    m_next->setWordWrap(true);
    m_next->setTextFormat(Qt::RichText);
    layout->addWidget(m_next);
    connect(m_paths, &QTableWidget::cellDoubleClicked, this,
            [this](int row, int) { emit pathActivated(m_paths->item(row, 0)->text()); });
    clear();
}

void OverviewPage::setValue(const QString &key, const QString &text, const QString &tip)
{
    if (auto *label = m_cards->findChild<QLabel *>(key)) {
        label->setText(text);
        label->setToolTip(tip);
    }
}

void OverviewPage::setPrecision(const QString &key, const QString &text, const QString &tip)
{
    if (auto *label = m_cards->findChild<QLabel *>(key + QStringLiteral(" precision"))) {
        label->setText(text);
        label->setToolTip(tip);
    }
}

QString OverviewPage::precisionText(const QString &key) const
{
    const auto *label = m_cards->findChild<QLabel *>(key + QStringLiteral(" precision"));
    return label ? label->text() : QString();
}

// A sample's figures are estimates: their 95 % intervals under the figures themselves.
void OverviewPage::showPrecision(const AnalysisResult &result)
{
    for (const char *key : kKeys)
        setPrecision(QString::fromLatin1(key), QString());
    const double target = result.request.p99PrecisionPoints;
    const SamplePrecision precision = SamplePrecision::of(result.profile, target);
    m_precisionTarget->setVisible(precision.applies);
    m_confidenceText.clear();
    if (!precision.applies)
        return;
    const QString level = Format::percent(precision.confidence, 0);
    m_confidenceText = level;
    auto interval = [&](const SamplePrecision::Interval &i) {
        return tr("%1 CI %2 – %3")
            .arg(level, i.low ? Format::bytes(*i.low) : tr("unbounded"),
                 i.high ? Format::bytes(*i.high) : tr("unbounded"));
    };
    const QString rankTip =
        tr("The collection's value lies in this range with %1 confidence (order-statistic "
           "bounds, whatever the distribution of sizes).")
            .arg(level);
    setPrecision(QStringLiteral("Size p50"), interval(precision.p50), rankTip);
    setPrecision(QStringLiteral("Size p99"), interval(precision.p99), rankTip);
    setPrecision(
        QStringLiteral("Largest"),
        precision.documentsAboveMax
            ? tr("≤ %1 larger unseen").arg(Format::count(*precision.documentsAboveMax))
            : tr("≤ %1 larger unseen").arg(Format::percent(precision.shareAboveMax, 2)),
        tr("The largest document sampled is a lower bound: with %1 confidence at most this many "
           "documents of the collection are larger. A full scan finds them all.")
            .arg(level));
    int index = m_precisionTarget->findData(target);
    if (index < 0) { // a precision the CLI or a test set: offer it too
        m_precisionTarget->addItem(tr("for p99 ±%1 pt").arg(target), target);
        index = m_precisionTarget->count() - 1;
    }
    m_precisionTarget->setCurrentIndex(index);
    showSampleSuggestion(target);
}

// The sample size for p99 within ±points, under the documents counted (a sample only).
void OverviewPage::showSampleSuggestion(double points)
{
    if (m_confidenceText.isEmpty())
        return;
    setPrecision(
        QStringLiteral("Documents"),
        tr("sample; %1 needed").arg(Format::count(SamplePrecision::sampleForP99Within(points))),
        tr("A random sample of this size pins p99 to within ±%1 percentile points at "
           "%2 confidence.")
            .arg(points)
            .arg(m_confidenceText));
}

QString OverviewPage::valueText(const QString &key) const
{
    const auto *label = m_cards->findChild<QLabel *>(key);
    return label ? label->text() : QString();
}

void OverviewPage::clear()
{
    m_headline->setText(tr("No analysis yet"));
    m_notes->clear();
    m_notes->hide();
    m_growth->clear();
    for (const char *key : kKeys) {
        setValue(QString::fromLatin1(key), QStringLiteral("–"));
        setPrecision(QString::fromLatin1(key), QString());
    }
    m_paths->setRowCount(0);
    m_precisionTarget->hide();
    m_confidenceText.clear();
    m_next->setText(tr("Choose a collection or dump on the left and press <b>Run</b> (F5). "
                       "Sampling 10,000 documents takes seconds; a full scan is exact."));
}

void OverviewPage::showResult(const AnalysisResult &result)
{
    const CollectionProfile &p = result.profile;
    QString status;
    if (p.status == CollectionProfile::Status::Cancelled)
        status = tr(" — cancelled, partial result");
    else if (p.status == CollectionProfile::Status::Failed)
        status = tr(" — stopped by an error, partial result");
    m_headline->setText(tr("%1 · %2 · %3 documents in %4%5")
                            .arg(result.request.source.displayName(), p.mode,
                                 Format::count(p.documents), Format::duration(p.seconds), status) +
                        shardLine(result));
    m_notes->setText(p.notes.join(QLatin1Char('\n')));
    m_notes->setVisible(!p.notes.isEmpty());
    if (p.documents == 0) {
        clear();
        m_headline->setText(
            tr("%1: no documents analysed%2").arg(result.request.source.displayName(), status));
        m_notes->setText(p.notes.join(QLatin1Char('\n')));
        m_notes->setVisible(!p.notes.isEmpty());
        return;
    }
    std::uint64_t overHalf = 0;
    for (const auto &c : p.largestDocuments.above((16u << 20) / 2))
        overHalf += c.value > 0 ? 1 : 0;
    setValue(QStringLiteral("Documents"), Format::count(p.documents));
    setValue(QStringLiteral("Size p50"), Format::bytes(p.sizes.quantile(0.5)));
    setValue(QStringLiteral("Size p99"), Format::bytes(p.sizes.quantile(0.99)));
    showPrecision(result);
    setValue(QStringLiteral("Largest"), Format::bytes(p.sizes.max()),
             tr("%1 of the 16 MiB limit").arg(Format::percent(Format::ofLimit(p.sizes.max()))));
    setValue(QStringLiteral("Over 8 MiB"),
             tr("%1 (%2)").arg(Format::count(overHalf),
                               Format::percent(double(overHalf) / double(p.documents), 2)),
             tr("Documents over half of MongoDB's 16 MiB limit: writes to them will start failing "
                "as they grow."));
    setValue(QStringLiteral("Outlier documents"),
             tr("%1 (%2 by size, %3 by array)")
                 .arg(Format::count(result.outliers.outlierDocuments),
                      Format::count(result.outliers.sizeOutliers),
                      Format::count(result.outliers.arrayOutliers)),
             result.outliers.warnings.join(QLatin1Char('\n')));

    std::vector<const FieldProfile *> arrays;
    for (const auto &f : p.fields)
        if (f.arrays > 0)
            arrays.push_back(&f);
    std::sort(arrays.begin(), arrays.end(), [](const FieldProfile *a, const FieldProfile *b) {
        return a->lengths.max() > b->lengths.max();
    });
    if (arrays.size() > 8)
        arrays.resize(8);
    m_paths->setRowCount(int(arrays.size()));
    for (int i = 0; i < int(arrays.size()); ++i) {
        const FieldProfile &f = *arrays[std::size_t(i)];
        const auto *rec = result.recommendationFor(f.path);
        const QString keep = !rec              ? QString()
                             : rec->splittable ? Format::count(rec->keep)
                                               : tr("not splittable");
        const QStringList cells{QString::fromStdString(f.path), Format::count(f.lengths.max()),
                                Format::count(f.lengths.quantile(0.99)), keep};
        for (int c = 0; c < cells.size(); ++c) {
            auto *item = new QTableWidgetItem(cells[c]);
            if (c > 0)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (rec)
                item->setToolTip(rec->explanation);
            m_paths->setItem(i, c, item);
        }
    }
    showGrowth(result);
    const bool anyOutliers = result.outliers.outlierDocuments > 0;
    m_next->setText(
        anyOutliers
            ? tr("Next: check <b>Arrays</b> for the path to split and its recommended keep, "
                 "open the worst documents in <b>Outliers</b>, then see the effect in "
                 "<b>Split preview</b>.")
            : tr("No outliers under the current rule. Try a lower threshold in "
                 "<b>Document sizes</b> or <b>Arrays</b>."));
}

// The forecast of the largest document, from the history, once the analysis is in it.
void OverviewPage::showGrowth(const AnalysisResult &result)
{
    if (result.profile.status != CollectionProfile::Status::Complete) {
        m_growth->clear();
        return;
    }
    const SourceRef source = result.request.source;
    const double threshold = double(result.outliers.size.value);
    m_growthJob->start([source, threshold] { return SourceForecast::linesFor(source, threshold); },
                       [this](const QStringList &lines) {
                           const QString text = tr("Growth: %1").arg(lines.value(0));
                           m_growth->setText(text);
                           emit growthShown(text);
                       });
}

// A threshold chosen on a chart re-detects the outliers: shown here at once.
void OverviewPage::bind(SourceState *state)
{
    connect(state, &SourceState::outliersChanged, this, [this] {
        if (isCurrent())
            showResult(this->state()->result());
    });
}

} // namespace oe
