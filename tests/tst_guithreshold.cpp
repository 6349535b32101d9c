// The threshold in sync: spin box, dragged chart line and "use recommended", with live
// counters checked against an independent read of the dump; chart tooltips and export; the
// split preview following the keep chosen in Arrays.
#include "GuiFixtures.h"
#include "analysis/ThresholdRange.h"
#include "charts/HistogramChart.h"
#include "pages/ArraysPage.h"
#include "pages/CollectionView.h"
#include "pages/SizesPage.h"
#include "pages/SplitPreviewPage.h"
#include "widgets/ChartPanel.h"
#include "widgets/QuantitySpinBox.h"
#include "widgets/SplitExampleView.h"
#include "widgets/ThresholdControl.h"
#include "workspace/SourceState.h"

#include <QComboBox>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSet>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

using namespace oe;

namespace {

// A press, a move and a release with the left button held, as a user drags.
void drag(QWidget *widget, QPoint from, QPoint to)
{
    auto send = [widget](QEvent::Type type, QPoint at, Qt::MouseButton button,
                         Qt::MouseButtons buttons) {
        QMouseEvent event(type, QPointF(at), widget->mapToGlobal(QPointF(at)), button, buttons,
                          Qt::NoModifier);
        QApplication::sendEvent(widget, &event);
    };
    send(QEvent::MouseButtonPress, from, Qt::LeftButton, Qt::LeftButton);
    send(QEvent::MouseMove, (from + to) / 2, Qt::NoButton, Qt::LeftButton);
    send(QEvent::MouseMove, to, Qt::NoButton, Qt::LeftButton);
    send(QEvent::MouseButtonRelease, to, Qt::LeftButton, Qt::NoButton);
}

QString count(std::uint64_t n)
{
    return QLocale().toString(qulonglong(n));
}

} // namespace

class TestGuiThreshold : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    AnalysisResult m_result;
    QList<fixtures::ReferenceDocument> m_ref;

private slots:
    void initTestCase()
    {
        const QString dump = guifixtures::demoDump(m_dir.path(), QStringLiteral("activity_feeds"));
        m_result = guifixtures::analyse(dump);
        m_ref = fixtures::readReference(dump);
        QVERIFY(m_result.profile.documents > 0);
    }

    void sizeThresholdStaysInSync()
    {
        SourceState state;
        SizesPage page;
        page.setState(&state);
        page.resize(1000, 600);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        state.setResult(m_result);
        page.refresh();
        HistogramChart *chart = page.panel()->chart();
        ThresholdControl *control = page.control();
        const std::uint64_t recommended = m_result.outliers.size.value;
        QCOMPARE(control->value(), recommended);
        QCOMPARE(chart->threshold().value(), double(recommended));
        QCOMPARE(control->recommended().value(), recommended);

        // Typing a number moves the line and updates the counters.
        const std::uint64_t typed = 40000;
        control->spinBox()->setValue(int(typed));
        QCOMPARE(chart->threshold().value(), double(typed));
        QCOMPARE(state.sizeThreshold(), typed);
        QVERIFY2(control->countersText().startsWith(
                     count(guifixtures::documentsLargerThan(m_ref, typed)) + QLatin1Char(' ')),
                 qPrintable(control->countersText()));
        QVERIFY(chart->outlierBinCount() > 0);

        // Dragging the line sets the number.
        chart->replot();
        const int x = int(chart->thresholdPixel());
        const int y = chart->axisRect()->center().y();
        QSignalSpy changed(&state, &SourceState::sizeThresholdChanged);
        drag(chart, QPoint(x, y), QPoint(x + 60, y));
        QVERIFY(changed.count() >= 1);
        const double dragged = chart->threshold().value();
        QCOMPARE(dragged, std::round(chart->xAxis->pixelToCoord(x + 60)));
        QVERIFY(dragged > double(typed));
        QCOMPARE(control->value(), std::uint64_t(dragged));
        QCOMPARE(state.sizeThreshold(), std::uint64_t(dragged));
        QVERIFY2(control->countersText().startsWith(
                     count(guifixtures::documentsLargerThan(m_ref, std::uint64_t(dragged))) +
                     QLatin1Char(' ')),
                 qPrintable(control->countersText()));

        // "Use recommended" puts both back.
        QTest::mouseClick(control->recommendedButton(), Qt::LeftButton);
        QCOMPARE(control->value(), recommended);
        QCOMPARE(chart->threshold().value(), double(recommended));

        // A press away from the line pans instead of moving it.
        const double before = chart->threshold().value();
        drag(chart, QPoint(chart->axisRect()->left() + 20, y),
             QPoint(chart->axisRect()->left() + 60, y));
        QCOMPARE(chart->threshold().value(), before);
    }

    void tooltipsNameTheBin()
    {
        HistogramChart chart(HistogramChart::Unit::Bytes);
        chart.resize(800, 400);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        const auto bins = m_result.profile.sizes.histogram().bins();
        chart.setBins(bins);
        chart.replot();
        // The fullest bin: its middle on screen names its count and share.
        auto fullest = std::max_element(bins.begin(), bins.end(), [](const auto &a, const auto &b) {
            return a.count < b.count;
        });
        const double middle = std::sqrt(double(fullest->lower) * double(fullest->upper));
        const QPoint at(int(chart.xAxis->coordToPixel(middle)), chart.axisRect()->center().y());
        const QString text = chart.binTextAt(at);
        QVERIFY2(text.contains(count(fullest->count) + QStringLiteral(" documents")),
                 qPrintable(text));
        QVERIFY(chart.binTextAt(QPoint(-5, -5)).isEmpty());
    }

    void chartFollowsThePalette()
    {
        HistogramChart chart(HistogramChart::Unit::Bytes);
        chart.setBins(m_result.profile.sizes.histogram().bins());
        QPalette dark = chart.palette();
        dark.setColor(QPalette::Base, QColor(0x20, 0x20, 0x24));
        dark.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x30));
        dark.setColor(QPalette::WindowText, QColor(0xee, 0xee, 0xee));
        chart.setPalette(dark);
        const QImage image = chart.toPixmap(400, 300).toImage();
        // The plot's background is the palette's base, the axis labels its text colour.
        QCOMPARE(QColor(image.pixel(2, 2)), QColor(0x20, 0x20, 0x24));
        QCOMPARE(chart.xAxis->tickLabelColor(), QColor(0xee, 0xee, 0xee));
    }

    // In dark mode the threshold's label stays readable over the bars: it has its own
    // background (the palette's base), so no bar colour shows through behind its text.
    void thresholdLabelReadableInDarkMode()
    {
        HistogramChart chart(HistogramChart::Unit::Elements);
        std::vector<LogHistogram::Bin> bins;
        for (std::uint64_t lower = 1; lower < 4096; lower *= 2)
            bins.push_back({lower, lower * 2, 1000}); // bars as tall as the plot
        chart.setBins(bins);
        chart.setThreshold(64.0);
        QPalette dark = chart.palette();
        dark.setColor(QPalette::Base, QColor(0x20, 0x20, 0x24));
        dark.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x30));
        dark.setColor(QPalette::WindowText, QColor(0xee, 0xee, 0xee));
        dark.setColor(QPalette::Highlight, QColor(0x3d, 0xae, 0xe9));
        chart.setPalette(dark);
        chart.resize(600, 300);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.replot();
        const QImage image = chart.toPixmap(600, 300).toImage();
        const QRect label = chart.thresholdLabelRect().toAlignedRect().adjusted(1, 1, -1, -1);
        QVERIFY(label.isValid() && label.width() > 20);
        int coloured = 0;
        for (int y = label.top(); y <= label.bottom(); ++y)
            for (int x = label.left(); x <= label.right(); ++x) {
                const QColor c(image.pixel(x, y));
                coloured += c.hsvSaturation() > 90 ? 1 : 0; // a bar, not grey text or base
            }
        QVERIFY2(
            coloured < label.width() * label.height() / 50,
            qPrintable(QStringLiteral("%1 bar-coloured pixels behind the label").arg(coloured)));
    }

    void exportFormats()
    {
        HistogramChart chart(HistogramChart::Unit::Bytes);
        chart.resize(640, 360);
        chart.setBins(m_result.profile.sizes.histogram().bins());
        chart.setThreshold(40000);
        QString error;
        const QString png = m_dir.filePath(QStringLiteral("chart.png"));
        QVERIFY2(chart.exportTo(png, &error), qPrintable(error));
        QImage image(png);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() >= 640);
        const QString pdf = m_dir.filePath(QStringLiteral("chart.pdf"));
        QVERIFY2(chart.exportTo(pdf, &error), qPrintable(error));
        QFile pdfFile(pdf);
        QVERIFY(pdfFile.open(QIODevice::ReadOnly));
        QVERIFY(pdfFile.read(5) == "%PDF-");
        const QString svg = m_dir.filePath(QStringLiteral("chart.svg"));
        QVERIFY2(chart.exportTo(svg, &error), qPrintable(error));
        QFile svgFile(svg);
        QVERIFY(svgFile.open(QIODevice::ReadOnly));
        const QByteArray svgText = svgFile.readAll();
        QVERIFY(svgText.contains("<svg"));
        QVERIFY(svgText.contains("<path") || svgText.contains("<polyline"));
        QVERIFY(!chart.exportTo(m_dir.filePath(QStringLiteral("chart.bmp")), &error));
        QVERIFY2(error.contains(QStringLiteral(".bmp")), qPrintable(error));
        // A failure says why.
        const QString missing = m_dir.filePath(QStringLiteral("no/such/folder/chart.png"));
        QVERIFY(!chart.exportTo(missing, &error));
        QVERIFY2(error.contains(QStringLiteral("No such file or directory")), qPrintable(error));
        // A name typed without extension takes the chosen filter's.
        QCOMPARE(ChartPanel::withExtension(QStringLiteral("/tmp/sizes"),
                                           QStringLiteral("PDF document (*.pdf)")),
                 QStringLiteral("/tmp/sizes.pdf"));
        QCOMPARE(ChartPanel::withExtension(QStringLiteral("/tmp/sizes.svg"),
                                           QStringLiteral("PDF document (*.pdf)")),
                 QStringLiteral("/tmp/sizes.svg"));
    }

    void keepCountersMatchTheData()
    {
        SourceState state;
        ArraysPage page;
        page.setState(&state);
        page.resize(1000, 700);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        state.setResult(m_result);
        page.refresh();
        QCOMPARE(page.selectedPath(), QStringLiteral("activities"));
        const SplitRecommendation *rec = m_result.recommendationFor("activities");
        QVERIFY(rec);
        QCOMPARE(page.control()->value(), rec->keep);
        for (std::uint64_t keep : {std::uint64_t(100), std::uint64_t(400), rec->keep}) {
            page.control()->spinBox()->setValue(int(keep));
            const QString text = page.control()->countersText();
            const auto over =
                guifixtures::arraysLongerThan(m_ref, QStringLiteral("activities"), keep);
            const auto moved =
                guifixtures::elementsBeyond(m_ref, QStringLiteral("activities"), keep);
            QVERIFY2(text.startsWith(count(over) + QLatin1Char(' ')), qPrintable(text));
            QVERIFY2(text.contains(count(moved) + QStringLiteral(" elements would move")),
                     qPrintable(text));
            QCOMPARE(page.panel()->chart()->threshold().value(), double(keep));
        }
        // Drag in the arrays chart too.
        HistogramChart *chart = page.panel()->chart();
        chart->replot();
        const int x = int(chart->thresholdPixel());
        const int y = chart->axisRect()->center().y();
        QSignalSpy keepChanged(&state, &SourceState::keepChanged);
        drag(chart, QPoint(x, y), QPoint(x - 40, y));
        QVERIFY(keepChanged.count() >= 1);
        QCOMPARE(keepChanged.last().at(0).value<std::uint64_t>(), page.control()->value());
        QCOMPARE(state.keep(), page.control()->value());
        QCOMPARE(double(page.control()->value()), chart->threshold().value());
    }

    void splitPreviewFollowsKeep()
    {
        SourceState state;
        CollectionView view;
        view.setState(&state);
        view.resize(1200, 800);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QSignalSpy preview(view.splitPreview(), &SplitPreviewPage::previewReady);
        QSignalSpy plan(view.splitPreview(), &SplitPreviewPage::planReady);
        QSignalSpy applied(&view, &CollectionView::resultApplied);
        state.setResult(m_result);
        QVERIFY(applied.wait(10000));
        QVERIFY(view.isApplied());
        QCOMPARE(view.splitPreview()->path(), QStringLiteral("activities"));
        QCOMPARE(view.splitPreview()->keep(), view.arrays()->control()->value());

        const std::uint64_t keep = 250;
        state.setPageSize(200); // pages short enough to be shown whole (128 K characters)
        view.arrays()->control()->spinBox()->setValue(int(keep));
        QCOMPARE(view.splitPreview()->keep(), keep);
        QTRY_VERIFY_WITH_TIMEOUT(plan.count() >= 1 &&
                                     view.splitPreview()->planSummary()->text().contains(
                                         QStringLiteral("Keeping %1 ").arg(count(keep))),
                                 20000);
        const QString summary = view.splitPreview()->planSummary()->text();
        const auto over = guifixtures::arraysLongerThan(m_ref, QStringLiteral("activities"), keep);
        QVERIFY2(summary.contains(QStringLiteral("%1 of %2 documents split")
                                      .arg(count(over), count(std::uint64_t(m_ref.size())))),
                 qPrintable(summary));
        QVERIFY2(summary.contains(
                     count(guifixtures::elementsBeyond(m_ref, QStringLiteral("activities"), keep)) +
                     QStringLiteral(" elements")),
                 qPrintable(summary));

        // The chosen document after the split keeps exactly `keep` elements.
        QTRY_VERIFY_WITH_TIMEOUT(
            preview.count() >= 1 &&
                !view.splitPreview()->example()->primaryView()->toPlainText().isEmpty(),
            20000);
        QTRY_VERIFY_WITH_TIMEOUT(
            QJsonDocument::fromJson(
                view.splitPreview()->example()->primaryView()->toPlainText().toUtf8())
                    .object()
                    .value(QStringLiteral("activities"))
                    .toArray()
                    .size() == int(keep),
            20000);
        const QJsonObject primary =
            QJsonDocument::fromJson(
                view.splitPreview()->example()->primaryView()->toPlainText().toUtf8())
                .object();
        QCOMPARE(primary.value(QStringLiteral("has_extras")).toBool(), true);
        const QJsonObject page0 =
            QJsonDocument::fromJson(
                view.splitPreview()->example()->pageView()->toPlainText().toUtf8())
                .object();
        QCOMPARE(page0.value(QStringLiteral("page")).toInt(), 0);
        QCOMPARE(page0.value(QStringLiteral("parent_id")), primary.value(QStringLiteral("_id")));

        // And back: the preview's keep drives the Arrays page.
        view.splitPreview()->keepBox()->setValue(300);
        QCOMPARE(view.arrays()->control()->value(), std::uint64_t(300));
        QCOMPARE(view.arrays()->panel()->chart()->threshold().value(), 300.0);
    }

    // A keep is taken as typed, above the longest array too (nothing is over it then, and the
    // counters say so); a number the box cannot hold, or one below 0, is never changed in
    // silence: the note beside the box says what became of it.
    void typedKeepIsTakenOrExplained()
    {
        SourceState state;
        ArraysPage page;
        page.setState(&state);
        page.resize(1200, 700);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        state.setResult(m_result);
        page.refresh();
        const FieldProfile *field = m_result.profile.field("activities");
        QVERIFY(field);
        const std::uint64_t longest = field->lengths.max();
        QSpinBox *spin = page.control()->spinBox();
        const auto type = [&](const QString &text) {
            spin->setFocus();
            spin->selectAll();
            QTest::keyClicks(spin, text);
            QTest::keyClick(spin, Qt::Key_Return);
        };
        const auto note = [&] {
            const auto *label =
                page.control()->findChild<QLabel *>(QStringLiteral("thresholdNote"));
            return label && label->isVisible() ? label->text() : QString();
        };
        const std::uint64_t above = longest * 10; // one digit more than any keep in the data
        type(QString::number(above));
        QCOMPARE(page.control()->value(), above);
        QCOMPARE(state.keep(), above);
        QCOMPARE(note(), QString());
        // Nothing is over it: the counters say so, not "largest primary after 0 B".
        QTRY_VERIFY_WITH_TIMEOUT(state.planIsCurrent(), 20000);
        QTRY_VERIFY2_WITH_TIMEOUT(
            page.control()->countersText().contains(QStringLiteral("nothing would split")),
            qPrintable(page.control()->countersText()), 5000);
        QVERIFY2(!page.control()->countersText().contains(QStringLiteral(" 0 B")),
                 qPrintable(page.control()->countersText()));
        QVERIFY(page.control()->countersText().contains(count(longest)));

        // Above the largest threshold: refused, in the CLI's words (ThresholdRange).
        type(QStringLiteral("99999999999"));
        QCOMPARE(page.control()->value(), above);
        QCOMPARE(note(), ThresholdRange::aboveMaximum(QStringLiteral("99999999999")));
        QCOMPARE(note(),
                 QStringLiteral("99999999999 is above the largest threshold, 2,147,483,647."));
        const std::uint64_t before = 120;
        type(QString::number(before));
        QCOMPARE(page.control()->value(), before);
        QCOMPARE(note(), QString()); // taken as typed: the old note is gone
        type(QStringLiteral("-5"));
        QCOMPARE(page.control()->value(), before);
        QVERIFY2(note().contains(QStringLiteral("-5 is below 0")), qPrintable(note()));

        // Bytes: "100 GiB" is not ignored: refused, and the note says so.
        ThresholdControl sizes(QStringLiteral("Size:"), QStringLiteral(" B"));
        sizes.show();
        sizes.setValue(40000);
        QSignalSpy changed(&sizes, &ThresholdControl::valueChanged);
        sizes.spinBox()->setFocus();
        sizes.spinBox()->selectAll();
        QTest::keyClicks(sizes.spinBox(), QStringLiteral("100 GiB"));
        QTest::keyClick(sizes.spinBox(), Qt::Key_Return);
        QCOMPARE(sizes.value(), std::uint64_t(40000));
        QCOMPARE(changed.count(), 0);
        const auto *sizeNote = sizes.findChild<QLabel *>(QStringLiteral("thresholdNote"));
        QVERIFY(sizeNote && sizeNote->isVisible());
        QCOMPARE(sizeNote->text(), ThresholdRange::aboveMaximum(QStringLiteral("100 GiB")));
        QCOMPARE(sizes.spinBox()->maximum(), int(ThresholdRange::kMaximum));
    }

    // Issue 35: the box shrank when its note appeared. Its width stays, the note takes the
    // room beside it (the size box and the keep box, in a window as wide as the explorer's).
    void boxKeepsItsWidthWhenTheNoteShows_data()
    {
        QTest::addColumn<QString>("suffix");
        QTest::addColumn<QString>("typed");
        QTest::newRow("bytes") << QStringLiteral(" B") << QStringLiteral("100 GiB");
        QTest::newRow("elements") << QStringLiteral(" elements") << QStringLiteral("99999999999");
    }
    void boxKeepsItsWidthWhenTheNoteShows()
    {
        QFETCH(QString, suffix);
        QFETCH(QString, typed);
        ThresholdControl control(QStringLiteral("&Threshold:"), suffix);
        control.resize(1100, control.sizeHint().height());
        control.setRecommended(400, QStringLiteral("why"));
        control.setValue(400);
        control.show();
        QVERIFY(QTest::qWaitForWindowExposed(&control));
        QSpinBox *spin = control.spinBox();
        const auto *noteLabel = control.findChild<QLabel *>(QStringLiteral("thresholdNote"));
        QVERIFY(noteLabel && !noteLabel->isVisible());
        const int width = spin->width();
        const int buttonWidth = control.recommendedButton()->width();
        spin->setFocus();
        spin->selectAll();
        QTest::keyClicks(spin, typed);
        QTest::keyClick(spin, Qt::Key_Return);
        QTRY_VERIFY(noteLabel->isVisible());
        QCOMPARE(noteLabel->text(), ThresholdRange::aboveMaximum(typed));
        QTRY_COMPARE(spin->width(), width); // the layout settles on the next event
        QCOMPARE(control.recommendedButton()->width(), buttonWidth);
        QVERIFY2(
            spin->width() >= spin->sizeHint().width(),
            qPrintable(QStringLiteral("%1 < %2").arg(spin->width()).arg(spin->sizeHint().width())));
        // Edited again, the note goes and the box still keeps its width.
        QTest::keyClick(spin, Qt::Key_Backspace);
        QTRY_VERIFY(!noteLabel->isVisible());
        QTRY_COMPARE(spin->width(), width);
    }

    // "8 MiB" is 8 MiB, not 8 B; an unknown unit is refused; the arrows step sensibly.
    void thresholdTakesUnits()
    {
        QCOMPARE(QuantitySpinBox::parseBytes(QStringLiteral("8 MiB")).value(), std::uint64_t(8)
                                                                                   << 20);
        QCOMPARE(QuantitySpinBox::parseBytes(QStringLiteral("8mib")).value(), std::uint64_t(8)
                                                                                  << 20);
        QCOMPARE(QuantitySpinBox::parseBytes(QStringLiteral("1.5 KB")).value(),
                 std::uint64_t(1500));
        QCOMPARE(QuantitySpinBox::parseBytes(QStringLiteral("2 KiB")).value(), std::uint64_t(2048));
        QCOMPARE(QuantitySpinBox::parseBytes(QStringLiteral("40000")).value(),
                 std::uint64_t(40000));
        QCOMPARE(QuantitySpinBox::parseBytes(QStringLiteral("40,000 B")).value(),
                 std::uint64_t(40000));
        QVERIFY(!QuantitySpinBox::parseBytes(QStringLiteral("8 XB")));
        QVERIFY(!QuantitySpinBox::parseBytes(QStringLiteral("MiB")));
        QVERIFY(!QuantitySpinBox::parseBytes(QStringLiteral("-3 B")));

        ThresholdControl control(QStringLiteral("Size:"), QStringLiteral(" B"));
        QSignalSpy changed(&control, &ThresholdControl::valueChanged);
        QSpinBox *spin = control.spinBox();
        auto *edit = spin->findChild<QLineEdit *>();
        QVERIFY(edit);
        spin->selectAll();
        QTest::keyClicks(spin, QStringLiteral("8 MiB"));
        QTest::keyClick(spin, Qt::Key_Return);
        QCOMPARE(control.value(), std::uint64_t(8) << 20);
        QCOMPARE(changed.last().at(0).value<std::uint64_t>(), std::uint64_t(8) << 20);
        spin->selectAll();
        QTest::keyClicks(spin, QStringLiteral("8 X"));
        QVERIFY2(!edit->text().contains(QLatin1Char('X')), qPrintable(edit->text())); // refused
        QTest::keyClick(spin, Qt::Key_Escape);

        control.setValue(40000);
        QTest::keyClick(spin, Qt::Key_Up);
        QCOMPARE(control.value(), std::uint64_t(41000));
        QTest::keyClick(spin, Qt::Key_Down);
        QTest::keyClick(spin, Qt::Key_Down);
        QCOMPARE(control.value(), std::uint64_t(39000));
        QCOMPARE(QuantitySpinBox::stepFor(7), 1);
        QCOMPARE(QuantitySpinBox::stepFor(1269), 100);
    }

    // Small counts: whole-number tick labels only, none repeated; the threshold's label stays
    // clear of the legend wherever the line is.
    void axisLabelsAndThresholdLabelStayReadable()
    {
        HistogramChart chart(HistogramChart::Unit::Elements);
        chart.resize(700, 400);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        for (const auto unit : {HistogramChart::Unit::Elements, HistogramChart::Unit::Bytes})
            for (const auto &bins : std::vector<std::vector<LogHistogram::Bin>>{
                     {{3, 4, 1}}, {{1, 2, 1}, {2, 3, 2}}, {{5, 6, 2}, {6, 7, 1}}}) {
                HistogramChart small(unit);
                small.resize(700, 400);
                small.setBins(bins);
                small.resetView();
                small.replot();
                for (QCPAxis *axis : {small.xAxis, small.yAxis}) {
                    QStringList labels;
                    for (const QString &l : axis->tickVectorLabels())
                        if (!l.isEmpty())
                            labels << l;
                    QVERIFY(!labels.isEmpty());
                    QVERIFY2(QSet<QString>(labels.begin(), labels.end()).size() == labels.size(),
                             qPrintable(labels.join(QStringLiteral(", "))));
                }
            }
        chart.setBins({{10, 12, 1}, {12, 15, 3}, {15, 20, 2}, {90, 100, 1}});
        chart.resetView();

        for (const double at : {11.0, 60.0, 95.0}) {
            chart.setThreshold(at);
            chart.replot();
            chart.replot(); // the label follows the legend's laid-out place
            const QRectF label = chart.thresholdLabelRect();
            QVERIFY(!label.isEmpty());
            QVERIFY2(!label.intersects(QRectF(chart.legend->outerRect())),
                     qPrintable(QStringLiteral("threshold %1").arg(at)));
            QVERIFY(QRectF(chart.axisRect()->rect()).adjusted(-1, -1, 1, 1).contains(label));
        }
    }

    // A bin that straddles the line is drawn as both: orange only from the line on, as the
    // counter counts only the values above it.
    void straddlingBinIsSplitAtTheLine()
    {
        HistogramChart chart(HistogramChart::Unit::Elements);
        chart.setBins({{10, 20, 5}, {20, 40, 3}, {40, 80, 1}});
        chart.setThreshold(25);
        QCOMPARE(chart.firstOutlierKey().value(), 25.0);
        QCOMPARE(chart.outlierBinCount(), 2);
        chart.setThreshold(39); // the bin's largest value, 39, is not above: not an outlier bin
        QCOMPARE(chart.firstOutlierKey().value(), 40.0);
        QCOMPARE(chart.outlierBinCount(), 1);
        chart.setThreshold(5); // below every bin: all orange from the first edge
        QCOMPARE(chart.firstOutlierKey().value(), 10.0);
    }
};

QTEST_MAIN(TestGuiThreshold)
#include "tst_guithreshold.moc"
