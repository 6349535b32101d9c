#pragma once

#include "CliRunner.h"
#include "LiveServer.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <map>

namespace fixtures {

// The CLI runs of the measurement tests (tst_servermeasure, tst_measurechoice) against one
// database of a live server: `analyze` into a directory of its own, `import` of a dump. A test
// class derives from it beside QObject, so its slots call these as its own.
class MeasureRuns
{
protected:
    explicit MeasureRuns(QString database) : kDatabase(std::move(database)) {}

    // Opens the live server (m_server, m_uri), keeps the CLI's state under m_dir and writes the
    // demo datasets there; empty, or the problem in one line.
    QString start();
    static CliRun cli(const QStringList &args) { return runCli(args, 600000); }
    // --uri (this server's, or `uri`), --db, --collection.
    QStringList target(const QString &collection, const QString &uri = {}) const;
    // `analyze --top 500 --out <dir>/<name>` with `extra`: the directory, or empty when the
    // run failed (its stderr is then a warning); m_lastErr and m_lastOut keep what it printed.
    QString analyze(const QString &collection, const QString &name, const QStringList &extra,
                    const QString &uri = {});
    // `import --drop` of `dump` into `collection`, read back into m_documents.
    void import(const QString &collection, const QString &dump);

    LiveServer m_server;
    QTemporaryDir m_dir;
    QString m_uri;
    const QString kDatabase;
    std::map<QString, QList<QByteArray>> m_documents; // by collection, as the server holds them
    QString m_lastErr;
    QString m_lastOut;
};

} // namespace fixtures
