#pragma once

// The live GUI tests' bench (tst_guiwatch, tst_guiremedy, tst_guimigrations): a mongod of the plain
// fixture, the window connected to it with a collection selected and analysed whole, its Shape tab,
// a flag's Rewrite dialog, and screenshots for the README when OE_SCREENSHOT_DIR is set.

#include "LiveDocuments.h"
#include "LiveServer.h"
#include "dialogs/RewriteDialog.h"
#include "explorer/MainWindow.h"
#include "models/SourceTreeModel.h"
#include "pages/AnalysisOptionsBar.h"
#include "pages/CollectionView.h"
#include "pages/ShapePage.h"

#include <QComboBox>
#include <QDir>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>

class GuiLiveBench
{
protected:
    explicit GuiLiveBench(QString database) : m_db(std::move(database)) {}

    fixtures::LiveServer m_server;
    QString m_uri;
    const QString m_db;
    QTemporaryDir m_history; // the analysis history of this run alone (the window records each)

    // The server opened, the history this run's own, the test's database dropped: empty, or
    // what went wrong.
    QString openFresh()
    {
        if (!m_history.isValid())
            return QStringLiteral("no temporary directory for the history");
        qputenv("OE_HISTORY_DB", m_history.filePath(QStringLiteral("history.sqlite")).toUtf8());
        m_server = fixtures::LiveServer::open();
        if (!m_server.isValid())
            return m_server.missing();
        m_uri = m_server.uri();
        QString error;
        fixtures::command(m_uri, m_db, QByteArray("{\"dropDatabase\": 1}"), &error);
        return error;
    }

    void saveScreenshot(QWidget *widget, const QString &name) const
    {
        const QString dir = qEnvironmentVariable("OE_SCREENSHOT_DIR");
        if (dir.isEmpty())
            return;
        QTest::qWait(300); // the layout and the charts' queued replots, for the picture only
        widget->grab().save(QDir(dir).filePath(name));
    }
    // The window connected to `uri` as `name`, database.collection selected.
    static bool showCollection(oe::MainWindow &window, const QString &uri, const QString &name,
                               const QString &database, const QString &collection)
    {
        window.setInteractive(false);
        window.show();
        QSignalSpy loaded(&window, &oe::MainWindow::connectionLoaded);
        oe::ConnectionSettings settings;
        settings.uri = uri;
        window.addConnection(name, settings);
        if (!loaded.wait(60000))
            return false;
        oe::SourceTreeModel *model = window.sourceModel();
        const QModelIndex index =
            model->findCollection(model->findConnection(name), database, collection);
        window.sourceTree()->setCurrentIndex(index);
        return index.isValid();
    }
    // The selected collection analysed whole by the window; whether the result came.
    static bool analyseWhole(oe::MainWindow &window)
    {
        window.optionsBar()->setMode(oe::AnalysisOptions::Mode::Full);
        QSignalSpy finished(&window, &oe::MainWindow::analysisFinished);
        window.runAnalysis();
        return finished.wait(120000);
    }

    // The window on `m_db`.`collection`, read whole on the client (the shape is measured), its
    // Shape tab shown; null when any step fails.
    oe::ShapePage *shapeOf(oe::MainWindow &window, const QString &collection) const
    {
        if (!showCollection(window, m_uri, collection, m_db, collection))
            return nullptr;
        window.optionsBar()->measureBox()->setCurrentIndex(
            window.optionsBar()->measureBox()->findData(int(oe::MeasureMode::Client)));
        oe::CollectionView *view = window.collectionView();
        if (!analyseWhole(window) || !QTest::qWaitFor([&] { return view->isApplied(); }, 10000) ||
            !view->showTab(QStringLiteral("shape")))
            return nullptr;
        return view->shape();
    }
    bool insertAll(const QString &collection, const QStringList &docs, QString *error) const
    {
        return fixtures::command(m_uri, m_db,
                                 QStringLiteral("{\"insert\": \"%1\", \"documents\": [%2]}")
                                     .arg(collection, docs.join(QLatin1Char(',')))
                                     .toUtf8(),
                                 error);
    }
    // Shape tab -> the flag of `kind` at `path` -> Rewrite...: the dialog, or null.
    oe::RewriteDialog *openRewrite(oe::MainWindow &window, const QString &collection,
                                   const QString &kind, const QString &path) const
    {
        oe::ShapePage *shape = shapeOf(window, collection);
        const int row = shape ? flagRow(shape, kind, path) : -1;
        if (row < 0)
            return nullptr;
        shape->flagsTable()->setCurrentCell(row, 0);
        if (!shape->rewriteButton()->isEnabled())
            return nullptr;
        QTest::mouseClick(shape->rewriteButton(), Qt::LeftButton);
        oe::RewriteDialog *dialog = nullptr;
        const bool opened = QTest::qWaitFor(
            [&] { return (dialog = window.findChild<oe::RewriteDialog *>()) != nullptr; });
        return opened ? dialog : nullptr;
    }
    // Runs one of the dialog's steps and waits for it: whether it went well.
    static bool step(oe::RewriteDialog *dialog, QSignalSpy &finished,
                     oe::RewriteDialog::Action action)
    {
        dialog->run(action);
        return finished.wait(30000) && finished.last().at(1).toBool();
    }
    // The row of the flag of `kind` at `path`, or -1.
    static int flagRow(oe::ShapePage *shape, const QString &kind, const QString &path)
    {
        for (int r = 0; r < shape->flagsTable()->rowCount(); ++r)
            if (shape->flagsTable()->item(r, oe::ShapePage::Kind)->text() == kind &&
                shape->flagsTable()->item(r, oe::ShapePage::Path)->text() == path)
                return r;
        return -1;
    }
};
