// The migration wizard against a real FerretDB server: a live split stopped after a batch by
// the Apply page's button, resumed from the journal, verified, and rolled back to documents
// byte-identical to the originals; the safety page names FerretDB's non-atomic updates.
#include "AnalysisSession.h"
#include "GuiFixtures.h"
#include "LiveDocuments.h"
#include "MigrationWizard.h"
#include "SourceState.h"
#include "WizardApplyPage.h"
#include "WizardDriver.h"
#include "WizardSafetyPage.h"
#include "WizardVerifyPage.h"

#include <QCheckBox>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSemaphore>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>

using namespace oe;

class TestMigrationWizardLive : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_uri;
    QString m_collection;

    static void driveTo(MigrationWizard &wizard, MigrationWizard::PageId page)
    {
        WizardDriver driver(&wizard, page);
        QSignalSpy reached(&driver, &WizardDriver::reached);
        QSignalSpy failed(&driver, &WizardDriver::failed);
        QTRY_VERIFY_WITH_TIMEOUT(!reached.isEmpty() || !failed.isEmpty(), 240000);
        QVERIFY2(failed.isEmpty(), qPrintable(failed.value(0).value(0).toString()));
    }

private slots:
    void initTestCase()
    {
        m_uri = fixtures::liveUri();
        QVERIFY2(!m_uri.isEmpty(), "no FerretDB fixture (OE_LIVE_DIR/plain/env)");
        const QString dump = guifixtures::demoDump(m_dir.path(), QStringLiteral("book_sales"), 300);
        m_collection = QStringLiteral("books_%1").arg(QCoreApplication::applicationPid());
        QProcess cli;
        cli.start(qEnvironmentVariable("OE_CLI"),
                  {QStringLiteral("import"), QStringLiteral("--uri"), m_uri, QStringLiteral("--db"),
                   QStringLiteral("oe_wizard"), QStringLiteral("--collection"), m_collection,
                   QStringLiteral("--dump"), dump, QStringLiteral("--drop")});
        QVERIFY(cli.waitForFinished(300000));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
    }

    void stopResumeVerifyRollBack()
    {
        const auto originals =
            fixtures::readCollection(m_uri, QStringLiteral("oe_wizard"), m_collection);
        QCOMPARE(originals.size(), std::size_t(300));

        AnalysisRequest request;
        request.source.kind = SourceRef::Kind::Collection;
        request.source.settings.uri = m_uri;
        request.source.database = QStringLiteral("oe_wizard");
        request.source.collection = m_collection;
        request.mode = AnalysisOptions::Mode::Full;
        SourceState state;
        state.setResult(AnalysisSession::run(request));
        QCOMPARE(state.analysis().profile.documents, std::uint64_t(300));
        state.setKeep(10);

        MigrationWizard wizard(&state);
        // Small batches; the first batch's trims wait until the user has pressed Stop, so the
        // run is stopped mid-way whatever the server's speed.
        QSemaphore stopped;
        std::atomic<int> batches{0};
        MigrationOptions options;
        options.batch = 4;
        options.beforeTrim = [&](const std::vector<QByteArray> &) {
            if (batches.fetch_add(1) == 0)
                stopped.acquire();
        };
        wizard.setMigrationOptions(options);
        wizard.show();

        driveTo(wizard, MigrationWizard::SafetyPageId);
        auto *safety = qobject_cast<WizardSafetyPage *>(wizard.currentPage());
        QVERIFY2(safety->findings()->text().contains(QStringLiteral("FerretDB")),
                 qPrintable(safety->findings()->text()));
        const std::uint64_t toSplit = wizard.outcome(MigrationOutcome::Step::Prepare).plan.affected;
        QVERIFY(toSplit > 8);
        safety->confirmEdit()->setText(m_collection);
        QVERIFY(wizard.validateCurrentPage());
        wizard.next();
        QCOMPARE(wizard.currentId(), int(MigrationWizard::ApplyPageId));

        auto *apply = qobject_cast<WizardApplyPage *>(wizard.currentPage());
        QTRY_VERIFY_WITH_TIMEOUT(batches.load() >= 1, 60000);
        QTest::mouseClick(apply->cancelButton(), Qt::LeftButton);
        stopped.release();
        QTRY_VERIFY_WITH_TIMEOUT(apply->resumeButton()->isVisible(), 120000);
        const MigrationOutcome &first = wizard.outcome(MigrationOutcome::Step::Apply);
        QVERIFY2(first.ok && first.cancelled, qPrintable(first.error.toString()));
        QVERIFY(first.progress.migrated > 0);
        QVERIFY(first.progress.migrated < toSplit);
        QVERIFY(!apply->isComplete());

        QTest::mouseClick(apply->resumeButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(apply->isComplete(), 240000);
        const MigrationOutcome &second = wizard.outcome(MigrationOutcome::Step::Apply);
        QVERIFY2(second.ok && !second.cancelled, qPrintable(second.error.toString()));

        driveTo(wizard, MigrationWizard::VerifyPageId);
        auto *verify = qobject_cast<WizardVerifyPage *>(wizard.currentPage());
        QTRY_VERIFY_WITH_TIMEOUT(
            verify->isComplete() && wizard.outcome(MigrationOutcome::Step::Verify).ok, 120000);
        const VerifyReport &report = wizard.outcome(MigrationOutcome::Step::Verify).verify;
        QCOMPARE(report.checked, toSplit);
        QCOMPARE(report.mismatches, std::uint64_t(0));
        const auto split =
            fixtures::readCollection(m_uri, QStringLiteral("oe_wizard"), m_collection);
        QCOMPARE(split.size(), originals.size());
        QVERIFY(split != originals);

        verify->rollbackConfirm()->setChecked(true);
        QTest::mouseClick(verify->rollbackButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(verify->isComplete() &&
                                     wizard.outcome(MigrationOutcome::Step::Rollback).step ==
                                         MigrationOutcome::Step::Rollback,
                                 240000);
        const MigrationOutcome &rolledBack = wizard.outcome(MigrationOutcome::Step::Rollback);
        QVERIFY2(rolledBack.ok, qPrintable(rolledBack.error.toString()));
        QCOMPARE(rolledBack.progress.migrated, toSplit);
        QVERIFY(fixtures::readCollection(m_uri, QStringLiteral("oe_wizard"), m_collection) ==
                originals);
    }
};

QTEST_MAIN(TestMigrationWizardLive)
#include "tst_migrationwizardlive.moc"
