#include "demo/ScreenshotDirector.h"

#include "explorer/MainWindow.h"
#include "output/StagedOutput.h"
#include "pages/CollectionView.h"
#include "pages/OutliersPage.h"
#include "pages/SplitPreviewPage.h"
#include "wizard/MigrationWizard.h"
#include "wizard/WizardDriver.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QPixmap>
#include <QTableView>

#include <cstdio>

namespace oe {

ScreenshotDirector::ScreenshotDirector(MainWindow *window, QString file, QString tab,
                                       QString wizardPage, QObject *parent)
    : QObject(parent), m_window(window), m_file(std::move(file)), m_tab(std::move(tab)),
      m_wizardPage(std::move(wizardPage))
{
    m_window->setInteractive(false);
    connect(m_window, &MainWindow::analysisFinished, this, &ScreenshotDirector::analysisDone,
            Qt::SingleShotConnection); // the shown dataset is analysed first
    connect(m_window, &MainWindow::errorShown, this, [this](const QString &message) {
        fail(QStringLiteral("the analysis failed: ") + message);
    });
    m_timeout.setSingleShot(true);
    connect(&m_timeout, &QTimer::timeout, this,
            [this] { fail(QStringLiteral("timed out waiting for the analysis")); });
    m_timeout.start(kTimeoutMs);
}

void ScreenshotDirector::analysisDone()
{
    CollectionView *view = m_window->collectionView();
    if (!view->isApplied()) {
        connect(view, &CollectionView::resultApplied, this, &ScreenshotDirector::analysisDone,
                Qt::SingleShotConnection);
        return;
    }
    if (!m_wizardPage.isEmpty()) {
        openWizard();
        return;
    }
    view->showTab(m_tab);
    if (m_tab == QLatin1String("split")) {
        // Wait for both halves of the preview.
        m_waiting = 2;
        for (auto signal : {&SplitPreviewPage::previewReady, &SplitPreviewPage::planReady})
            connect(
                view->splitPreview(), signal, this,
                [this] {
                    if (--m_waiting == 0)
                        QTimer::singleShot(300, this, [this] { capture(m_window); });
                },
                Qt::SingleShotConnection);
        return;
    }
    if (m_tab == QLatin1String("outliers"))
        view->outliers()->table()->selectRow(0);
    QTimer::singleShot(300, this, [this] { capture(m_window); });
}

void ScreenshotDirector::openWizard()
{
    MigrationWizard *wizard = m_window->openMigrationWizard();
    if (!wizard) {
        fail(QStringLiteral("the migration wizard cannot open: no array to split"));
        return;
    }
    wizard->setOutDir(m_scratch.filePath(QStringLiteral("split")));
    auto *driver = new WizardDriver(wizard, MigrationWizard::pageIdOf(m_wizardPage), this);
    connect(driver, &WizardDriver::failed, this, &ScreenshotDirector::fail);
    connect(driver, &WizardDriver::reached, this,
            [this, wizard] { QTimer::singleShot(300, this, [this, wizard] { capture(wizard); }); });
}

void ScreenshotDirector::capture(QWidget *widget)
{
    m_timeout.stop();
    const QPixmap image = widget->grab();
    const QString suffix = QFileInfo(m_file).suffix().toUpper();
    const QByteArray format = suffix.isEmpty() ? QByteArray("PNG") : suffix.toLatin1();
    QByteArray bytes;
    QBuffer buffer(&bytes);
    SourceError error;
    if (image.isNull() || !buffer.open(QIODevice::WriteOnly) ||
        !image.save(&buffer, format.constData()) ||
        !StagedOutput::writeFile(m_file, bytes, &error)) {
        fail(QStringLiteral("could not write %1").arg(QDir::toNativeSeparators(m_file)));
        return;
    }
    std::fprintf(stdout, "screenshot: %s (%dx%d)\n", qPrintable(m_file), image.width(),
                 image.height());
    QCoreApplication::exit(0);
}

void ScreenshotDirector::fail(const QString &message)
{
    std::fprintf(stderr, "outlier-explorer: screenshot: %s\n", qPrintable(message));
    QCoreApplication::exit(1);
}

} // namespace oe
