#include "WizardLiveFixture.h"

#include "GuiFixtures.h"
#include "LiveDocuments.h"
#include "explore/AnalysisSession.h"
#include "wizard/WizardApplyPage.h"
#include "wizard/WizardDriver.h"
#include "wizard/WizardSafetyPage.h"

#include <QCoreApplication>
#include <QDir>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QtTest>

using namespace oe;

void WizardLiveFixture::setUpBooks()
{
    m_uri = fixtures::liveUri();
    QVERIFY2(!m_uri.isEmpty(), "no live server fixture (OE_LIVE_DIR/plain/env)");
    m_dump = guifixtures::demoDump(m_dir.path(), QStringLiteral("book_sales"), 300);
    m_collection = QStringLiteral("books_%1").arg(QCoreApplication::applicationPid());
    importBooks(m_collection);
}

void WizardLiveFixture::importBooks(const QString &name)
{
    QProcess cli;
    cli.start(qEnvironmentVariable("OE_CLI"),
              {QStringLiteral("import"), QStringLiteral("--uri"), m_uri, QStringLiteral("--db"),
               QStringLiteral("oe_wizard"), QStringLiteral("--collection"), name,
               QStringLiteral("--dump"), m_dump, QStringLiteral("--drop")});
    QVERIFY(cli.waitForFinished(300000));
    QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
}

AnalysisResult WizardLiveFixture::analyseLive(const QString &collection)
{
    AnalysisRequest request;
    request.source.kind = SourceRef::Kind::Collection;
    request.source.settings.uri = m_uri;
    request.source.database = QStringLiteral("oe_wizard");
    request.source.collection = collection;
    request.selection.mode = AnalysisOptions::Mode::Full;
    return AnalysisSession::run(request);
}

void WizardLiveFixture::paceSlowly(WizardSafetyPage *safety)
{
    QVERIFY(safety->batchBox()->isVisible() && safety->throttleBox()->isVisible());
    safety->batchBox()->setValue(4);
    safety->throttleBox()->setValue(4);
}

void WizardLiveFixture::stopAfterTheFirstRound(WizardApplyPage *apply)
{
    auto *bar = apply->findChild<QProgressBar *>();
    if (!bar || !QTest::qWaitFor([&] { return bar->value() > 0; }, 60000))
        qFatal("the split did not start");
    QTest::mouseClick(apply->cancelButton(), Qt::LeftButton);
    if (!QTest::qWaitFor([&] { return apply->resumeButton()->isVisible(); }, 120000))
        qFatal("the split did not stop");
}

void WizardLiveFixture::saveScreenshot(QWidget &wizard, const QString &name)
{
    const QString dir = qEnvironmentVariable("OE_SCREENSHOT_DIR");
    if (!dir.isEmpty())
        wizard.grab().save(QDir(dir).filePath(name));
}

void WizardLiveFixture::driveTo(MigrationWizard &wizard, MigrationWizard::PageId page)
{
    WizardDriver driver(&wizard, page);
    QSignalSpy reached(&driver, &WizardDriver::reached);
    QSignalSpy failed(&driver, &WizardDriver::failed);
    QTRY_VERIFY_WITH_TIMEOUT(!reached.isEmpty() || !failed.isEmpty(), 240000);
    QVERIFY2(failed.isEmpty(), qPrintable(failed.value(0).value(0).toString()));
}
