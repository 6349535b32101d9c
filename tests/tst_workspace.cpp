#include "GuiFixtures.h"

#include "workspace/SourceState.h"
#include "workspace/Workspace.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace oe;

// The desktop's registry of open sources: one state per source, which one is shown, and the
// analyses one at a time, queued in order, each result in its source's state before it is
// announced; a wizard's full scan keeps the current result unless a complete one replaces it.
class TestWorkspace : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_books;
    QString m_feeds;
    QString m_big;

    static AnalysisRequest fullScanOf(const QString &dump)
    {
        AnalysisRequest request;
        request.source.kind = SourceRef::Kind::Dump;
        request.source.dumpPath = dump;
        request.selection.mode = AnalysisOptions::Mode::Full;
        return request;
    }
    // Waits for the next `finished` and returns its result.
    static AnalysisResult nextResult(QSignalSpy &finished)
    {
        if (finished.isEmpty() && !finished.wait(120000))
            return AnalysisResult();
        return finished.takeFirst().first().value<AnalysisResult>();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_books = guifixtures::demoDump(m_dir.path(), QStringLiteral("book_sales"), 1500);
        m_feeds = guifixtures::demoDump(m_dir.path(), QStringLiteral("activity_feeds"), 1500);
        // Large enough that a cancel right after the start lands before the scan ends.
        m_big = guifixtures::demoDump(m_dir.path(), QStringLiteral("feed_bench"), 60000);
    }

    void oneStatePerSourceAndTheShownOne()
    {
        Workspace workspace;
        const SourceRef books = fullScanOf(m_books).source;
        const SourceRef feeds = fullScanOf(m_feeds).source;
        SourceState *state = workspace.stateOf(books);
        QVERIFY(state);
        QCOMPARE(workspace.stateOf(books), state);
        QVERIFY(workspace.stateOf(feeds) != state);
        QCOMPARE(state->parent(), &workspace); // owned by the workspace

        QSignalSpy shown(&workspace, &Workspace::shownChanged);
        workspace.setShown(books);
        workspace.setShown(books); // no change, no signal
        QCOMPARE(shown.count(), 1);
        QVERIFY(workspace.isShown(books));
        QVERIFY(!workspace.isShown(feeds));
    }

    // The result is in the source's state when finished() announces it; progress names the
    // source; a second analysis is refused while one runs.
    void resultLandsInItsStateBeforeItIsAnnounced()
    {
        Workspace workspace;
        const AnalysisRequest request = fullScanOf(m_big);
        QSignalSpy progress(&workspace, &Workspace::progressed);
        QSignalSpy running(&workspace, &Workspace::runningChanged);
        bool stateHeldIt = false;
        connect(&workspace, &Workspace::finished, this, [&](const AnalysisResult &result) {
            const SourceState *state = workspace.stateOf(result.request.source);
            stateHeldIt =
                state->hasResult() && state->result().profile.documents == result.profile.documents;
        });
        QSignalSpy finished(&workspace, &Workspace::finished);
        QVERIFY(workspace.analyse(request));
        QVERIFY(workspace.isRunning());
        QVERIFY(workspace.isAnalysing(request.source));
        QVERIFY(!workspace.analyse(fullScanOf(m_books))); // one at a time
        const AnalysisResult result = nextResult(finished);
        QCOMPARE(result.profile.status, CollectionProfile::Status::Complete);
        QCOMPARE(result.profile.documents, std::uint64_t(60000));
        QVERIFY(stateHeldIt);
        QVERIFY(!workspace.isRunning());
        QVERIFY(!workspace.analysing().isValid());
        QCOMPARE(running.count(), 2); // on, then off
        QVERIFY(progress.count() >= 1);
        QCOMPARE(progress.last().at(0).value<SourceRef>().key(), request.source.key());
    }

    void queuedAnalysesRunInOrder()
    {
        Workspace workspace;
        QSignalSpy finished(&workspace, &Workspace::finished);
        workspace.enqueue(fullScanOf(m_books)); // idle: starts at once
        QVERIFY(workspace.isRunning());
        workspace.enqueue(fullScanOf(m_feeds));
        workspace.enqueue(fullScanOf(m_books));
        QStringList order;
        for (int i = 0; i < 3; ++i) {
            const AnalysisResult r = nextResult(finished);
            QCOMPARE(r.profile.status, CollectionProfile::Status::Complete);
            order << QFileInfo(r.request.source.dumpPath).baseName();
        }
        QCOMPARE(order, (QStringList{QStringLiteral("book_sales"), QStringLiteral("activity_feeds"),
                                     QStringLiteral("book_sales")}));
        QTest::qWait(50);
        QVERIFY(finished.isEmpty());
        QVERIFY(!workspace.isRunning());

        // A request without a source is dropped, not left at the head of the queue.
        workspace.enqueue(AnalysisRequest());
        QVERIFY(!workspace.isRunning());
        workspace.enqueue(fullScanOf(m_feeds));
        QVERIFY(workspace.isRunning());
        QCOMPARE(QFileInfo(nextResult(finished).request.source.dumpPath).baseName(),
                 QStringLiteral("activity_feeds"));
    }

    // The window's analysis clears the state and shows what a cancel leaves; the wizard's full
    // scan keeps the analysis it started from unless a complete one replaces it.
    void previousResultClearedOrKeptUntilComplete()
    {
        Workspace workspace;
        QSignalSpy finished(&workspace, &Workspace::finished);
        const AnalysisRequest request = fullScanOf(m_big);
        SourceState *state = workspace.stateOf(request.source);
        AnalysisRequest sample = request;
        sample.selection.mode = AnalysisOptions::Mode::Limit;
        sample.selection.count = 100;
        QVERIFY(workspace.analyse(sample));
        QCOMPARE(nextResult(finished).profile.documents, std::uint64_t(100));
        QCOMPARE(state->result().profile.documents, std::uint64_t(100));

        QVERIFY(workspace.analyse(request, Workspace::Previous::KeptUntilComplete));
        QVERIFY(state->hasResult()); // not cleared at the start
        workspace.cancel();
        QCOMPARE(nextResult(finished).profile.status, CollectionProfile::Status::Cancelled);
        QCOMPARE(state->result().profile.documents, std::uint64_t(100)); // kept

        QVERIFY(workspace.analyse(request, Workspace::Previous::KeptUntilComplete));
        QCOMPARE(nextResult(finished).profile.status, CollectionProfile::Status::Complete);
        QCOMPARE(state->result().profile.documents, std::uint64_t(60000)); // replaced

        QVERIFY(workspace.analyse(request));
        QVERIFY(!state->hasResult()); // cleared at the start
        workspace.cancel();
        const AnalysisResult cancelled = nextResult(finished);
        QCOMPARE(cancelled.profile.status, CollectionProfile::Status::Cancelled);
        QVERIFY(cancelled.profile.documents < 60000);
        QCOMPARE(state->result().profile.status, CollectionProfile::Status::Cancelled);
    }
};

QTEST_MAIN(TestWorkspace)
#include "tst_workspace.moc"
