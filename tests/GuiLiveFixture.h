// What the explorer's live tests share (tst_guilive, tst_guilivedocuments): the test's server
// (mongod, or FerretDB) with the activity_feeds demo dump imported by the CLI as
// <database>.feeds (each executable its own database: CTest may run them side by side on the
// same server), the dump's reference documents, and the helpers that show a window connected
// to it.
#pragma once

#include "BsonFixtures.h"
#include "LiveServer.h"

#include <QList>
#include <QModelIndex>
#include <QString>
#include <QTemporaryDir>

class QWidget;

namespace oe {
class MainWindow;
class SourceTreeModel;
} // namespace oe

class GuiLiveFixture
{
protected:
    explicit GuiLiveFixture(QString database);
    ~GuiLiveFixture(); // removes this run's settings file

    // The common initTestCase: opens the server and imports the dump as <database>.feeds
    // (dropped first). A failed check fails the caller's initTestCase.
    void openServerWithFeeds();
    // Imports a dump as <database>.<collection> (dropped first) with the CLI; empty, or why not.
    QString importDump(const QString &dump, const QString &collection) const;

    // Shows `window` connected to the test's server, its databases listed.
    bool connectTo(oe::MainWindow &window) const;
    // With OE_SCREENSHOT_DIR set (and mongod), `widget` as it looks now, for the README.
    void saveScreenshot(QWidget *widget, const QString &name) const;
    // Selects <database>.feeds in the window's source tree; false if it is not listed.
    bool selectFeeds(oe::MainWindow &window) const;
    // No system.* collection is offered (admin.system.version, system.users: no application
    // data); a database's Size is its documents' (on mongod, <database> holds only the
    // imported feeds: the dump's bytes), not its storage size on disk.
    void checkCatalogRows(oe::SourceTreeModel *model, const QModelIndex &conn) const;

    const QString m_database;
    QTemporaryDir m_dir;
    fixtures::LiveServer m_server;
    QString m_uri;
    QString m_dump;
    QList<fixtures::ReferenceDocument> m_ref;
};
