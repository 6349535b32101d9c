// Rewrites interrupted in an earlier session, in the window (issue 55): an extraction and a
// GridFS rewrite killed half-way (the journal fixtures an older build left, entries pending)
// are offered when the connection opens, Migrations lists them beside the splits with their
// remedy and counts, and resumes, verifies and rolls each back from there, the collection
// ending byte for byte as before the run. (A split's: tst_migrationwizardlivewindow.)
#include "GuiFixtures.h"
#include "GuiLiveBench.h"
#include "JournalFixtures.h"
#include "LiveDocuments.h"
#include "LiveServer.h"
#include "dialogs/MigrationsDialog.h"
#include "explorer/MainWindow.h"
#include "remedy/RewriteHistory.h"

#include <QDir>
#include <QLabel>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QTableWidget>
#include <QtTest>

using namespace oe;

namespace {

const QString kDb = QStringLiteral("oe_guimigrations");

QMessageBox *offerIn(QWidget &window)
{
    for (QMessageBox *box : window.findChildren<QMessageBox *>())
        if (box->isVisible() && box->windowTitle() == QStringLiteral("Interrupted migration"))
            return box;
    return nullptr;
}

} // namespace

class TestGuiMigrations : public QObject, public GuiLiveBench
{
    Q_OBJECT

public:
    TestGuiMigrations() : GuiLiveBench(kDb) {}

private slots:
    void initTestCase()
    {
        const QString problem = openFresh();
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        for (const QString &run : {QStringLiteral("extract"), QStringLiteral("gridfs")}) {
            const QString loaded =
                fixtures::loadJournalFixture(m_uri, kDb, fixtures::journalFixtureDir(run));
            QVERIFY2(loaded.isEmpty(), qPrintable(loaded));
        }
    }

    void interruptedRewritesAreOfferedAndFinished()
    {
        MainWindow window;
        QSignalSpy found(&window, &MainWindow::interruptedMigrationsFound);
        guifixtures::showConnecting(window, m_uri);
        window.setInteractive(true); // the offer is a question to the user
        QVERIFY(found.wait(120000));
        const QString runs = found.first().at(1).toStringList().join(QLatin1Char('\n'));
        QVERIFY2(runs.contains(QStringLiteral("oe_guimigrations.extract (body: extracted to "
                                              "extract_body_full, applying)")) &&
                     runs.contains(QStringLiteral("oe_guimigrations.gridfs (scan: to GridFS "
                                                  "bucket fs, applying)")),
                 qPrintable(runs));

        QMessageBox *offer = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((offer = offerIn(window)), 10000);
        const QString first = offer->text()
                                  .section(QLatin1Char('\n'), 1, 1)
                                  .section(QStringLiteral(" ("), 0, 0); // the first run's db.coll
        QTest::mouseClick(offer->button(QMessageBox::Open), Qt::LeftButton);
        auto *dialog = window.findChild<MigrationsDialog *>();
        QVERIFY2(dialog && dialog->isVisible(), "Open opened no Migrations view");
        QSignalSpy refreshed(dialog, &MigrationsDialog::refreshed);
        QSignalSpy done(dialog, &MigrationsDialog::rewriteFinished);
        QVERIFY(refreshed.wait(60000));
        int ours = 0; // the server's other journals are other tests'
        for (const RewriteRun &run : dialog->rewrites())
            ours += run.database == kDb;
        QCOMPARE(ours, 2);
        QCOMPARE(dialog->table()->rowCount(),
                 int(dialog->runs().size() + dialog->rewrites().size()));
        // Open selects the offer's first run, a split's row or a rewrite's.
        const QModelIndexList rows = dialog->table()->selectionModel()->selectedRows();
        QCOMPARE(rows.size(), 1);
        QCOMPARE(dialog->table()->item(rows.first().row(), 1)->text(), first);
        dialog->resize(1000, 420);
        if (const QString shots = qEnvironmentVariable("OE_SCREENSHOT_DIR"); !shots.isEmpty())
            dialog->grab().save(QDir(shots).filePath(QStringLiteral("migrations-rewrites.png")));

        for (const QString &collection : {QStringLiteral("extract"), QStringLiteral("gridfs")}) {
            const auto rowOf = [&] {
                for (int i = 0; i < int(dialog->rewrites().size()); ++i)
                    if (dialog->rewrites()[std::size_t(i)].database == kDb &&
                        dialog->rewrites()[std::size_t(i)].config.collection == collection)
                        return int(dialog->runs().size()) + i;
                return -1;
            };
            const auto runAt = [&] {
                return dialog->rewrites()[std::size_t(rowOf() - int(dialog->runs().size()))];
            };
            QVERIFY(rowOf() >= 0);
            QVERIFY(runAt().interrupted());
            QVERIFY(runAt().pending > 0); // killed between journaling and writing
            QCOMPARE(dialog->table()->item(rowOf(), 3)->text(),
                     collection == QLatin1String("gridfs") ? QStringLiteral("Store in GridFS")
                                                           : QStringLiteral("Extract to a side "
                                                                            "collection"));
            dialog->table()->selectRow(rowOf());
            dialog->resume(rowOf());
            QVERIFY(done.wait(120000));
            QVERIFY2(done.last().first().value<RewriteStep>().ok,
                     qPrintable(dialog->status()->text()));
            QVERIFY(refreshed.wait(60000));
            QCOMPARE(runAt().state, RewriteState::Applied);
            QCOMPARE(runAt().pending, std::uint64_t(0));
            // Its row moved (the run just written is the newest) and stayed selected.
            QCOMPARE(dialog->table()->selectionModel()->selectedRows().first().row(), rowOf());

            dialog->verify(rowOf());
            QVERIFY(done.wait(120000));
            QVERIFY(done.last().first().value<RewriteStep>().verify.ok());
            QVERIFY(refreshed.wait(60000)); // the journals read again after the step
            QVERIFY2(dialog->status()->text().startsWith(QStringLiteral("Verified: ")),
                     qPrintable(dialog->status()->text()));

            dialog->rollback(rowOf(), false);
            QVERIFY(done.wait(120000));
            QVERIFY(done.last().first().value<RewriteStep>().ok);
            QVERIFY(refreshed.wait(60000));
            QCOMPARE(runAt().state, RewriteState::RolledBack);
            const auto original =
                fixtures::documentsOf(QDir(fixtures::journalFixtureDir(collection))
                                          .filePath(QStringLiteral("original.bson")));
            QVERIFY2(fixtures::readCollection(m_uri, kDb, collection) == original,
                     qPrintable(collection));
        }
    }

    // A rewrite another client is applying right now is running, not interrupted: neither
    // offered nor resumable from Migrations; killed, it is interrupted.
    void aRunningRewriteIsNotInterrupted()
    {
        const QString c = QStringLiteral("running");
        QStringList docs;
        for (int i = 0; i < 60; ++i)
            docs << QStringLiteral("{\"_id\": %1, \"old\": %1}").arg(i);
        QString error;
        QVERIFY2(fixtures::command(m_uri, kDb,
                                   QStringLiteral("{\"insert\": \"%1\", \"documents\": [%2]}")
                                       .arg(c, docs.join(QLatin1Char(',')))
                                       .toUtf8(),
                                   &error),
                 qPrintable(error));
        QProcess cli;
        cli.start(qEnvironmentVariable("OE_CLI"),
                  {QStringLiteral("rewrite"), QStringLiteral("--uri"), m_uri,
                   QStringLiteral("--db"), kDb, QStringLiteral("--collection"), c,
                   QStringLiteral("--path"), QStringLiteral("old"), QStringLiteral("--rename-to"),
                   QStringLiteral("new"), QStringLiteral("--yes"), QStringLiteral("--batch"),
                   QStringLiteral("1"), QStringLiteral("--max-docs-per-sec"), QStringLiteral("4")});
        QVERIFY(cli.waitForStarted());
        const auto ours = [&]() -> std::optional<RewriteRun> {
            RewriteRuns runs;
            SourceError ignored;
            ConnectionSettings settings;
            settings.uri = m_uri;
            RewriteHistory::runs(settings, {kDb}, &runs, &ignored);
            for (const RewriteRun &run : runs)
                if (run.config.collection == c)
                    return run;
            return std::nullopt;
        };
        QTRY_VERIFY_WITH_TIMEOUT(ours() && ours()->applied > 0, 30000);
        QVERIFY(ours()->running);
        QVERIFY(!ours()->interrupted());
        cli.kill(); // -9
        cli.waitForFinished();
        QTRY_VERIFY_WITH_TIMEOUT(!ours()->running, 20000);
        QVERIFY(ours()->interrupted());
    }

    void cleanupTestCase()
    {
        QString error;
        fixtures::command(m_uri, kDb, QByteArray("{\"dropDatabase\": 1}"), &error);
    }
};

QTEST_MAIN(TestGuiMigrations)
#include "tst_guimigrations.moc"
