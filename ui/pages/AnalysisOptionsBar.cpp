#include "pages/AnalysisOptionsBar.h"

#include "explore/AnalysisResult.h"
#include "history/HistoryStore.h"

#include "analysis/ThresholdPreset.h"
#include "stats/OutlierMethod.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStyle>
#include <QVBoxLayout>

namespace oe {

AnalysisOptionsBar::AnalysisOptionsBar(QWidget *parent)
    : QWidget(parent), m_mode(new QComboBox(this)), m_count(new QSpinBox(this)),
      m_filter(new QLineEdit(this)), m_timeLimit(new QSpinBox(this)),
      m_parallel(new QSpinBox(this)), m_rule(new QComboBox(this)),
      m_measureLabel(new QLabel(tr("Measure"), this)), m_measure(new QComboBox(this)),
      m_measured(new QLabel(this)), m_run(new QPushButton(tr("&Run"), this)),
      m_cancel(new QPushButton(tr("Cancel"), this)), m_problem(new QLabel(this))
{
    m_mode->addItem(tr("Sample"), int(AnalysisOptions::Mode::Sample));
    m_mode->addItem(tr("First"), int(AnalysisOptions::Mode::Limit));
    m_mode->addItem(tr("Full scan"), int(AnalysisOptions::Mode::Full));
    m_mode->setToolTip(tr("Sample: a uniform random sample ($sample, or a reservoir where the "
                          "server lacks it). First: the first N in natural order. Full scan: "
                          "every document, exact."));
    // The CLI's --method and --preset, at their default parameters.
    m_rule->addItem(tr("IQR fence (k 1.5)"), QStringLiteral("iqr"));
    m_rule->addItem(tr("MAD z-score (3.5)"), QStringLiteral("mad"));
    m_rule->addItem(tr("Above p99"), QStringLiteral("percentile"));
    for (const QString &preset : ThresholdPreset::names()) {
        m_rule->addItem(tr("Fixed: %1").arg(preset), QString(QStringLiteral("absolute:") + preset));
        m_rule->setItemData(m_rule->count() - 1, ThresholdPreset::byName(preset)->description,
                            Qt::ToolTipRole);
    }
    m_rule->setToolTip(tr("How outliers are found where you set no threshold on a chart (the "
                          "CLI's --method and --preset)."));
    // The CLI's --measure words, in the user's.
    const QString server = tr("On the server: MongoDB 4.4 or later returns each document's "
                              "$bsonSize and its arrays' lengths, so numbers move instead of "
                              "documents. A partial analysis: the other fields and the shape are "
                              "not measured. A server without $bsonSize refuses to run.");
    const QString client = tr("Here: every document's bytes are read and measured in this "
                              "program (the only way on a server without $bsonSize).");
    m_measure->addItem(tr("Auto"), int(MeasureMode::Auto));
    m_measure->setItemData(0,
                           tr("The whole analysis, every field. From a server on this machine, "
                              "every document read here; across a network, counted in the "
                              "cluster so only answers cross it, or where the server cannot "
                              "count all of it, read here with wire compression."),
                           Qt::ToolTipRole);
    m_measure->addItem(tr("On the server"), int(MeasureMode::Server));
    m_measure->setItemData(1, server, Qt::ToolTipRole);
    m_measure->addItem(tr("Here (client)"), int(MeasureMode::Client));
    m_measure->setItemData(2, client, Qt::ToolTipRole);
    const QString cluster =
        tr("Counted in the cluster: only tallies and the outliers cross the network, whatever "
           "the collection's size. Where the tallies can plan the shape it is counted too (the "
           "whole analysis); else the figures of On the server. The server makes more passes: "
           "worth it on a slow or metered link, or a huge collection (Auto chooses it across a "
           "network).");
    m_measure->addItem(tr("In the cluster"), int(MeasureMode::Cluster));
    m_measure->setItemData(3, cluster, Qt::ToolTipRole);
    m_measure->setToolTip(
        tr("Where document sizes and array lengths are measured (live collections; a dump is "
           "measured here). Auto: the whole analysis, here on this machine, in the cluster across "
           "a network. %1 %2 Sizes and array lengths come out the same either way. After a run, "
           "the label beside says where it measured.")
            .arg(server, client));
    m_measureLabel->setBuddy(m_measure);
    m_measureLabel->setToolTip(m_measure->toolTip());
    m_count->setRange(1, 100000000);
    m_count->setValue(10000);
    m_count->setGroupSeparatorShown(true);
    m_count->setSuffix(tr(" documents"));
    m_filter->setPlaceholderText(tr("Filter, e.g. {\"status\": \"active\"}"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setToolTip(tr("Extended JSON query filter (live collections only)."));
    m_timeLimit->setRange(0, 86400);
    m_timeLimit->setSpecialValueText(tr("no time limit"));
    m_timeLimit->setSuffix(tr(" s limit"));
    m_timeLimit->setToolTip(tr("Server-side maxTimeMS for each operation (live collections)."));
    m_parallel->setRange(0, 64);
    m_parallel->setSpecialValueText(tr("1 cursor"));
    m_parallel->setPrefix(tr("ranges: "));
    m_parallel->setToolTip(
        tr("Full scan of a collection: read this many _id ranges at once, in _id order (from the "
           "shard chunks, or a sample of _ids). Any number gives the same figures; the scan's "
           "state is saved every few seconds, and Run continues a cancelled one. \"1 cursor\": "
           "one cursor in natural order, not resumable. In the cluster: the passes over every "
           "document are counted in this many ranges at once (\"1 cursor\": two)."));
    m_run->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    m_run->setToolTip(tr("Analyse the selected collection or dump (F5)."));
    m_cancel->setIcon(style()->standardIcon(QStyle::SP_MediaStop));
    m_cancel->setToolTip(tr("Stop the analysis and keep the partial result (Esc)."));
    m_problem->setStyleSheet(QStringLiteral("color: #d9480f"));

    // Two rows, so that the window fits a small screen: what is read and Run; then how.
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    auto *what = new QHBoxLayout;
    what->addWidget(m_mode);
    what->addWidget(m_count);
    what->addWidget(m_filter, 1);
    what->addWidget(m_run);
    what->addWidget(m_cancel);
    auto *how = new QHBoxLayout;
    how->addWidget(m_timeLimit);
    how->addWidget(m_parallel);
    how->addWidget(m_rule);
    how->addWidget(m_measureLabel);
    how->addWidget(m_measure);
    how->addSpacing(6); // what ran, apart from what is chosen
    how->addWidget(m_measured);
    how->addWidget(m_problem, 1);
    m_problem->setWordWrap(true);
    layout->addLayout(what);
    layout->addLayout(how);

    connect(m_mode, &QComboBox::currentIndexChanged, this, &AnalysisOptionsBar::update);
    connect(m_filter, &QLineEdit::textChanged, this, &AnalysisOptionsBar::update);
    connect(m_run, &QPushButton::clicked, this, &AnalysisOptionsBar::runRequested);
    connect(m_cancel, &QPushButton::clicked, this, &AnalysisOptionsBar::cancelRequested);
    update();
}

AnalysisRequest AnalysisOptionsBar::request(const SourceRef &source) const
{
    AnalysisRequest r;
    r.source = source;
    r.historyPath = HistoryStore::defaultPath(); // the window's analyses too (Trends reads it)
    r.origin = QStringLiteral("gui");
    r.selection.mode = AnalysisOptions::Mode(m_mode->currentData().toInt());
    r.selection.count = std::uint64_t(m_count->value());
    if (source.kind == SourceRef::Kind::Collection) {
        r.filter = m_filter->text().trimmed();
        r.maxTimeMs = qint64(m_timeLimit->value()) * 1000;
        if (AnalysisRequest::rangesApply(r.selection.mode, source.kind) &&
            m_parallel->value() > 0) {
            r.parallelRanges = m_parallel->value();
            r.resume = true; // a cancelled range scan continues where it stopped
        }
        r.measure = MeasureMode(m_measure->currentData().toInt());
    }
    const QString rule = m_rule->currentData().toString();
    if (rule.startsWith(QStringLiteral("absolute:"))) {
        r.detection.method = OutlierMethod::Absolute;
        r.detection.preset = *ThresholdPreset::byName(rule.mid(9));
    } else {
        r.detection.method = *methodFromName(rule);
    }
    return r;
}

QString AnalysisOptionsBar::problem() const
{
    if (!m_source.isValid())
        return tr("Select a collection or dump file on the left.");
    if (m_source.kind == SourceRef::Kind::Collection) {
        if (const QString p = LiveQuery::validateFilter(m_filter->text().trimmed()); !p.isEmpty())
            return tr("Filter: %1").arg(p);
    }
    // The request's own rules (the bar offers nothing they refuse, but it is their one place).
    return request(m_source).problems().value(0);
}

void AnalysisOptionsBar::setSource(const SourceRef &source)
{
    m_source = source;
    update();
}

void AnalysisOptionsBar::setMode(AnalysisOptions::Mode mode)
{
    m_mode->setCurrentIndex(m_mode->findData(int(mode)));
}

void AnalysisOptionsBar::setRunning(bool running)
{
    m_running = running;
    update();
}

void AnalysisOptionsBar::showMeasured(const AnalysisResult *result)
{
    const CollectionProfile *profile = result ? &result->profile : nullptr;
    if (!profile ||
        (profile->documents == 0 && profile->status != CollectionProfile::Status::Complete)) {
        m_measured->clear();
        m_measured->setToolTip(QString());
        return;
    }
    // The session says how it measured in a first note ("partial analysis: measured on the
    // server ($bsonSize): …",
    // "measured client-side: the server … has no $bsonSize …"); a resumed range scan says it in
    // its own ("resumed as it began: documents measured client-side"); a dump has none.
    QString why;
    for (const QString &note : profile->notes)
        if (note.startsWith(QLatin1String("measured")) ||
            (profile->countedInCluster && note.startsWith(QLatin1String("counted")))) {
            why = note;
            break;
        }
    for (const QString &note : profile->notes)
        if (why.isEmpty() && note.contains(QLatin1String("measured")))
            why = note;
    if (why.isEmpty())
        why = profile->measuredOnServer ? tr("measured on the server ($bsonSize)")
              : result->request.source.kind == SourceRef::Kind::Dump
                  ? tr("measured here: a dump file is read here, every document's bytes")
                  : tr("measured client-side: every document's bytes were read here");
    // A server-side measurement is a partial analysis (no shape, no fields without arrays): the
    // label says so where the eye is, not only in its tooltip.
    m_measured->setText(profile->measuredOnServer
                            ? tr("Partial analysis: measured on the server (no shape)")
                        : profile->countedInCluster ? tr("Counted in the cluster (shape included)")
                                                    : tr("Measured here (client-side)"));
    m_measured->setStyleSheet(profile->measuredOnServer
                                  ? QStringLiteral("color: #d9480f; font-weight: bold")
                                  : QString());
    m_measured->setToolTip(why);
}

void AnalysisOptionsBar::update()
{
    const bool live = m_source.kind == SourceRef::Kind::Collection;
    m_count->setEnabled(AnalysisOptions::Mode(m_mode->currentData().toInt()) !=
                        AnalysisOptions::Mode::Full);
    m_filter->setEnabled(live);
    m_timeLimit->setEnabled(live);
    m_measure->setEnabled(live); // a dump is read here, always
    m_measureLabel->setEnabled(live);
    m_parallel->setEnabled(AnalysisRequest::rangesApply(
        AnalysisOptions::Mode(m_mode->currentData().toInt()), m_source.kind));
    const QString p = problem();
    m_problem->setText(m_source.isValid() ? p : QString());
    m_filter->setStyleSheet(live && p.startsWith(tr("Filter")) ? QStringLiteral("color: #d9480f")
                                                               : QString());
    m_run->setEnabled(!m_running && p.isEmpty());
    m_cancel->setEnabled(m_running);
}

QVariantMap AnalysisOptionsBar::snapshot() const
{
    return {{QStringLiteral("mode"), m_mode->currentData()},
            {QStringLiteral("count"), m_count->value()},
            {QStringLiteral("filter"), m_filter->text()},
            {QStringLiteral("timeLimit"), m_timeLimit->value()},
            {QStringLiteral("ranges"), m_parallel->value()},
            {QStringLiteral("rule"), m_rule->currentData()},
            {QStringLiteral("measure"),
             measureModeName(MeasureMode(m_measure->currentData().toInt()))}};
}

void AnalysisOptionsBar::restore(const QVariantMap &snapshot)
{
    // Values come back from QSettings as text: compare them as the combo boxes hold them.
    if (const int mode = m_mode->findData(snapshot.value(QStringLiteral("mode"), -1).toInt());
        mode >= 0)
        m_mode->setCurrentIndex(mode);
    if (const int rule = m_rule->findData(snapshot.value(QStringLiteral("rule")).toString());
        rule >= 0)
        m_rule->setCurrentIndex(rule);
    if (const auto measure = measureModeFrom(snapshot.value(QStringLiteral("measure")).toString()))
        m_measure->setCurrentIndex(m_measure->findData(int(*measure)));
    if (snapshot.contains(QStringLiteral("count")))
        m_count->setValue(snapshot.value(QStringLiteral("count")).toInt());
    if (snapshot.contains(QStringLiteral("timeLimit")))
        m_timeLimit->setValue(snapshot.value(QStringLiteral("timeLimit")).toInt());
    if (snapshot.contains(QStringLiteral("ranges")))
        m_parallel->setValue(snapshot.value(QStringLiteral("ranges")).toInt());
    m_filter->setText(snapshot.value(QStringLiteral("filter")).toString());
    update();
}

} // namespace oe
