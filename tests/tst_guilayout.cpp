// The window as a user sizes and reaches it: at 800x600 every tab's controls fit and none
// overlaps; the source tree's context menu closes a dump; Help → User guide explains every tab
// and lists every shortcut.
#include "BsonFixtures.h"
#include "GuiFixtures.h"
#include "charts/HistogramChart.h"
#include "dialogs/UserGuide.h"
#include "explorer/MainWindow.h"
#include "models/SourceTreeModel.h"
#include "pages/AnalysisOptionsBar.h"
#include "pages/CollectionView.h"
#include "pages/SizesPage.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QMenu>
#include <QMenuBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTextDocumentFragment>
#include <QtTest>

#include <algorithm>

using namespace oe;

class TestGuiLayout : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_feeds;

    static void waitForResult(MainWindow &window)
    {
        QSignalSpy finished(&window, &MainWindow::analysisFinished);
        if (!finished.wait(60000))
            qFatal("no analysis result within 60 s");
        if (!QTest::qWaitFor([&] { return window.collectionView()->isApplied(); }, 10000))
            qFatal("the result did not reach every page");
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        m_feeds = guifixtures::demoDump(m_dir.path(), QStringLiteral("activity_feeds"));
    }

    // The window fits a small screen: it goes down to 800x600, and there, on every tab, no
    // control overlaps another or runs out of its parent, and each is shown (Show CDF too).
    void smallWindowStaysUsable()
    {
        MainWindow window;
        guifixtures::openForFullScan(window, m_feeds);
        window.runAnalysis();
        waitForResult(window);
        const QSize small(800, 600);
        QVERIFY2(window.minimumSizeHint().width() <= small.width() &&
                     window.minimumSizeHint().height() <= small.height(),
                 qPrintable(QStringLiteral("minimum %1x%2")
                                .arg(window.minimumSizeHint().width())
                                .arg(window.minimumSizeHint().height())));
        window.resize(small);
        QTRY_COMPARE(window.size(), small);
        auto *tabs = window.collectionView()->findChild<QTabWidget *>();
        QVERIFY(tabs);
        for (int t = 0; t < tabs->count(); ++t) {
            tabs->setCurrentIndex(t);
            QCoreApplication::sendPostedEvents(); // the layouts settle
            QTest::qWait(50);
            const QString tab = tabs->tabText(t).remove(QLatin1Char('&'));
            QStringList clashes = guifixtures::overlappingControls(&window);
            // A chart's threshold label is clear of its legend at this size too.
            for (const HistogramChart *chart : window.findChildren<HistogramChart *>())
                if (chart->isVisible() && chart->legend->visible() &&
                    chart->thresholdLabelRect().intersects(QRectF(chart->legend->outerRect())))
                    clashes << QStringLiteral("the threshold label is under the legend");
            QVERIFY2(clashes.isEmpty(),
                     qPrintable(tab + QStringLiteral(": ") + clashes.join(QStringLiteral("; "))));
        }
        tabs->setCurrentIndex(tabs->indexOf(window.collectionView()->findChild<SizesPage *>()));
        const auto boxes = window.findChildren<QCheckBox *>();
        const auto cdf = std::find_if(boxes.begin(), boxes.end(), [](QCheckBox *box) {
            return box->isVisible() &&
                   box->text().remove(QLatin1Char('&')) == QLatin1String("Show CDF");
        });
        QVERIFY(cdf != boxes.end());
        QVERIFY((*cdf)->visibleRegion().boundingRect().width() >= (*cdf)->sizeHint().width() - 2);
    }

    // The source tree's context menu closes a dump (its group with the last one); the window
    // goes back to its welcome page when what it showed is gone.
    void contextMenuClosesADump()
    {
        MainWindow window;
        window.setInteractive(false);
        window.show();
        const QString other = m_dir.filePath(QStringLiteral("other.bson"));
        QVERIFY(fixtures::writeFile(other, fixtures::concat({fixtures::documentWithArray(1, 3)})));
        window.openDump(m_feeds);
        window.openDump(other);
        SourceTreeModel *model = window.sourceModel();
        const QModelIndex group = model->index(0, 0);
        QCOMPARE(model->rowCount(group), 2);
        const QList<QAction *> actions = window.sourceActions(model->findDump(other));
        QCOMPARE(actions.size(), 1);
        QCOMPARE(actions.first()->text().remove(QLatin1Char('&')), QStringLiteral("Close dump"));
        actions.first()->trigger();
        QCOMPARE(model->rowCount(model->index(0, 0)), 1);
        QVERIFY(!model->findDump(other).isValid());
        QVERIFY(model->findDump(m_feeds).isValid());
        window.sourceActions(model->findDump(m_feeds)).first()->trigger();
        QCOMPARE(model->rowCount(), 0); // the group went with its last dump
        QVERIFY(window.statusText().startsWith(QStringLiteral("Closed ")));
        QVERIFY(window.sourceActions(QModelIndex()).isEmpty());
    }

    // Help → User guide (F1): every tab is explained, and every shortcut of the menus is in
    // its table with the key the action really has.
    void userGuideNamesEveryTabAndShortcut()
    {
        MainWindow window;
        window.show();
        QAction *guideAction = nullptr;
        QList<QAction *> withKeys;
        for (QAction *menu : window.menuBar()->actions())
            for (QAction *action : menu->menu()->actions()) {
                if (action->text().remove(QLatin1Char('&')) == QLatin1String("User guide"))
                    guideAction = action;
                if (!action->shortcut().isEmpty())
                    withKeys << action;
            }
        QVERIFY(guideAction);
        QCOMPARE(guideAction->shortcut(), QKeySequence(QKeySequence::HelpContents));
        UserGuide *guide = window.openUserGuide();
        QVERIFY(guide && guide->isVisible());
        const QString text = QTextDocumentFragment::fromHtml(guide->html()).toPlainText();
        QTabWidget *tabs = window.collectionView()->tabs();
        for (int t = 0; t < tabs->count(); ++t) {
            const QString tab = tabs->tabText(t).remove(QLatin1Char('&'));
            QVERIFY2(text.contains(tab), qPrintable(tab));
        }
        QVERIFY(withKeys.size() >= 6);
        for (QAction *action : withKeys) {
            const QString what = action->text().remove(QLatin1Char('&'));
            const QString keys = action->shortcut().toString(QKeySequence::NativeText);
            const qsizetype at = text.lastIndexOf(what); // the table is last
            QVERIFY2(at >= 0 && text.indexOf(keys, at) >= 0 &&
                         text.indexOf(keys, at) - at - what.size() <= 2,
                     qPrintable(what + QStringLiteral(": ") + keys));
        }
        // Beside it, the whole reference (resources/help/reference.md), its pictures left out.
        const QString reference = guide->referenceText();
        for (const char *part : {"outlier-explorer-cli analyze", "The migration wizard",
                                 "--measure", "shape_outliers.csv"})
            QVERIFY2(reference.contains(QLatin1String(part)), part);
        QVERIFY(!reference.contains(QLatin1String("](")));
        guide->close();
    }
};

QTEST_MAIN(TestGuiLayout)
#include "tst_guilayout.moc"
