// One observable state per open source: the result's recommendations are its starting
// choices, setters that change nothing stay silent, a new path brings its own keep, and in the
// window each source keeps the choices made for it while the user looks at another.
#include "GuiFixtures.h"
#include "explorer/MainWindow.h"
#include "models/OutlierTableModel.h"
#include "pages/ArraysPage.h"
#include "pages/CollectionView.h"
#include "pages/OutliersPage.h"
#include "pages/SizesPage.h"
#include "pages/SplitPreviewPage.h"
#include "widgets/ThresholdControl.h"
#include "workspace/SourceState.h"

#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

using namespace oe;

class TestSourceState : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_feeds;
    QString m_books;
    AnalysisResult m_result;

    // Selects `name` in the window and waits until every page shows its state.
    static void show(MainWindow &window, const QString &name)
    {
        QVERIFY(window.selectSource(name));
        QTRY_VERIFY_WITH_TIMEOUT(window.collectionView()->isApplied(), 10000);
    }

    static void analyse(MainWindow &window, const QString &name)
    {
        QVERIFY(window.selectSource(name));
        QSignalSpy finished(&window, &MainWindow::analysisFinished);
        window.runAnalysis();
        QVERIFY(finished.wait(60000));
        QTRY_VERIFY_WITH_TIMEOUT(window.collectionView()->isApplied(), 10000);
    }

private slots:
    void initTestCase()
    {
        m_feeds = guifixtures::demoDump(m_dir.path(), QStringLiteral("activity_feeds"));
        m_books = guifixtures::demoDump(m_dir.path(), QStringLiteral("book_sales"));
        m_result = guifixtures::analyse(m_feeds);
        QVERIFY(m_result.profile.documents > 0);
    }

    void resultSetsTheRecommendedChoices()
    {
        SourceState state;
        QSignalSpy result(&state, &SourceState::resultChanged);
        QSignalSpy keep(&state, &SourceState::keepChanged);
        state.setResult(m_result);
        QCOMPARE(result.count(), 1);
        QCOMPARE(keep.count(), 0); // the pages read every value on resultChanged
        QCOMPARE(state.path(), QStringLiteral("activities"));
        const SplitRecommendation *rec = m_result.recommendationFor("activities");
        QVERIFY(rec && rec->splittable);
        QCOMPARE(state.keep(), rec->keep);
        QCOMPARE(state.sizeThreshold(), m_result.outliers.size.value);
        QCOMPARE(state.pageSize(), SourceState::kDefaultPageSize);
        const int generation = state.generation();
        state.clear();
        QVERIFY(!state.hasResult());
        QVERIFY(state.generation() != generation);
        QVERIFY(state.path().isEmpty());
    }

    void settersEmitOnlyChanges()
    {
        SourceState state;
        state.setResult(m_result);
        QSignalSpy keep(&state, &SourceState::keepChanged);
        QSignalSpy pageSize(&state, &SourceState::pageSizeChanged);
        QSignalSpy threshold(&state, &SourceState::sizeThresholdChanged);
        QSignalSpy path(&state, &SourceState::pathChanged);
        state.setKeep(state.keep());
        state.setPageSize(state.pageSize());
        state.setPageSize(0); // not a page size
        state.setSizeThreshold(state.sizeThreshold());
        state.choosePath(state.path());
        QCOMPARE(keep.count() + pageSize.count() + threshold.count() + path.count(), 0);
        state.setKeep(state.keep() + 1);
        state.setPageSize(250);
        state.setSizeThreshold(12345);
        QCOMPARE(keep.count(), 1);
        QCOMPARE(keep.last().at(0).value<std::uint64_t>(), state.keep());
        QCOMPARE(pageSize.last().at(0).value<std::uint64_t>(), std::uint64_t(250));
        QCOMPARE(threshold.last().at(0).value<std::uint64_t>(), std::uint64_t(12345));
    }

    void anotherPathBringsItsKeep()
    {
        SourceState state;
        state.setResult(m_result);
        // Any other array path: its keep is its suggestion, announced after the path.
        QString other;
        for (const FieldProfile &f : m_result.profile.fields)
            if (f.arrays > 0 && f.path != "activities")
                other = QString::fromStdString(f.path);
        QVERIFY(!other.isEmpty());
        QStringList order;
        connect(&state, &SourceState::pathChanged, this, [&] { order << QStringLiteral("path"); });
        connect(&state, &SourceState::keepChanged, this, [&](std::uint64_t k) {
            order << QStringLiteral("keep");
            QCOMPARE(k, state.keep());
        });
        const std::uint64_t before = state.keep();
        state.choosePath(other);
        QCOMPARE(state.path(), other);
        QCOMPARE(state.keep(), m_result.suggestedKeep(other.toStdString()));
        QCOMPARE(order.value(0), QStringLiteral("path"));
        QCOMPARE(order.contains(QStringLiteral("keep")), state.keep() != before);
    }

    void pagesWriteAndFollowTheState()
    {
        SourceState state;
        CollectionView view;
        view.setState(&state);
        view.resize(1200, 800);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        state.setResult(m_result);
        QTRY_VERIFY_WITH_TIMEOUT(view.isApplied(), 10000);
        // Typed in Arrays: the state has it, the preview shows it.
        view.arrays()->control()->spinBox()->setValue(321);
        QCOMPARE(state.keep(), std::uint64_t(321));
        QCOMPARE(view.splitPreview()->keep(), std::uint64_t(321));
        // Set on the state (as the wizard does): every page shows it.
        state.setKeep(123);
        QCOMPARE(view.arrays()->control()->value(), std::uint64_t(123));
        QCOMPARE(view.splitPreview()->keepBox()->value(), 123);
        state.setSizeThreshold(50000);
        QCOMPARE(view.sizes()->control()->value(), std::uint64_t(50000));
        // Another view on the same state shows the same choices.
        CollectionView second;
        second.setState(&state);
        QTRY_VERIFY_WITH_TIMEOUT(second.isApplied(), 10000);
        QCOMPARE(second.arrays()->control()->value(), std::uint64_t(123));
        QCOMPARE(second.splitPreview()->keep(), std::uint64_t(123));
        QCOMPARE(second.sizes()->control()->value(), std::uint64_t(50000));
    }

    void eachSourceKeepsItsChoices()
    {
        MainWindow window;
        window.setInteractive(false);
        window.resize(1300, 850);
        window.show();
        window.openDump(m_feeds);
        window.openDump(m_books);
        analyse(window, QStringLiteral("activity_feeds.bson"));
        CollectionView *view = window.collectionView();
        SourceState *feeds = view->state();
        view->arrays()->control()->spinBox()->setValue(77);
        QCOMPARE(feeds->keep(), std::uint64_t(77));
        // A lower size threshold typed in Document sizes lists more outliers.
        const int rowsBefore = view->outliers()->model()->rowCount();
        const std::uint64_t bytes = feeds->sizeThreshold() / 2;
        view->sizes()->control()->spinBox()->setValue(int(bytes));
        QTRY_VERIFY_WITH_TIMEOUT(view->outliers()->model()->rowCount() > rowsBefore, 5000);
        QCOMPARE(feeds->result().outliers.size.value, bytes);
        const int rowsChosen = view->outliers()->model()->rowCount();

        analyse(window, QStringLiteral("book_sales.bson"));
        SourceState *books = view->state();
        QVERIFY(books != feeds);
        QVERIFY(books->keep() != 77);
        QCOMPARE(view->arrays()->control()->value(), books->keep());
        QCOMPARE(view->result().request.source.displayName(), QStringLiteral("book_sales.bson"));

        show(window, QStringLiteral("activity_feeds.bson"));
        QCOMPARE(view->state(), feeds);
        QCOMPARE(view->arrays()->control()->value(), std::uint64_t(77));
        QCOMPARE(view->splitPreview()->keep(), std::uint64_t(77));
        QCOMPARE(view->sizes()->control()->value(), bytes);
        QCOMPARE(view->outliers()->model()->rowCount(), rowsChosen);
        QCOMPARE(view->result().request.source.displayName(),
                 QStringLiteral("activity_feeds.bson"));
    }
};

QTEST_MAIN(TestSourceState)
#include "tst_sourcestate.moc"
