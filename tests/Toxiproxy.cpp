#include "Toxiproxy.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTcpServer>
#include <QThread>

namespace {
quint16 freePort()
{
    QTcpServer probe;
    return probe.listen(QHostAddress::LocalHost, 0) ? probe.serverPort() : 0;
}
} // namespace

Toxiproxy::~Toxiproxy()
{
    if (m_server.state() != QProcess::NotRunning) {
        m_server.terminate();
        if (!m_server.waitForFinished(5000))
            m_server.kill();
        m_server.waitForFinished(5000);
    }
    if (!m_log.isEmpty())
        QFile::remove(m_log);
}

bool Toxiproxy::api(const QString &method, const QString &path, const QString &body, QString *error)
{
    QProcess curl;
    QStringList args{QStringLiteral("-sS"), QStringLiteral("--fail-with-body"),
                     QStringLiteral("-X"), method, m_api + path};
    if (!body.isEmpty())
        args << QStringLiteral("-H") << QStringLiteral("Content-Type: application/json")
             << QStringLiteral("-d") << body;
    curl.start(QStringLiteral("curl"), args);
    if (!curl.waitForFinished(10000) || curl.exitCode() != 0) {
        *error = QStringLiteral("toxiproxy %1 %2: %3%4")
                     .arg(method, path, QString::fromUtf8(curl.readAllStandardOutput()),
                          QString::fromUtf8(curl.readAllStandardError()));
        return false;
    }
    return true;
}

bool Toxiproxy::start(const QString &upstream, QString *error)
{
    QString binary = qEnvironmentVariable("OE_TOXIPROXY");
    if (binary.isEmpty()) { // built once per machine, like the FerretDB fixture's server
        QProcess install;
        install.start(QStringLiteral("bash"),
                      {QStringLiteral(OE_SOURCE_DIR "/packaging/install-toxiproxy.sh")});
        install.waitForFinished(600000);
        binary = QString::fromUtf8(install.readAllStandardOutput())
                     .trimmed()
                     .section(QLatin1Char('\n'), -1);
        if (install.exitCode() != 0 || binary.isEmpty()) {
            *error = QStringLiteral("packaging/install-toxiproxy.sh failed: ") +
                     QString::fromUtf8(install.readAllStandardError());
            return false;
        }
    }
    const quint16 apiPort = freePort();
    const quint16 proxyPort = freePort();
    m_api = QStringLiteral("http://127.0.0.1:%1").arg(apiPort);
    m_listen = QStringLiteral("127.0.0.1:%1").arg(proxyPort);
    // Its log goes to a file: a pipe nobody reads fills after some hundred connections, and
    // toxiproxy then stops proxying while it waits to write.
    m_log = QDir::temp().filePath(QStringLiteral("oe-toxiproxy-%1-%2.log")
                                      .arg(QCoreApplication::applicationPid())
                                      .arg(apiPort));
    m_server.setProcessChannelMode(QProcess::MergedChannels);
    m_server.setStandardOutputFile(m_log);
    m_server.start(binary, {QStringLiteral("-host"), QStringLiteral("127.0.0.1"),
                            QStringLiteral("-port"), QString::number(apiPort)});
    if (!m_server.waitForStarted(10000)) {
        *error = QStringLiteral("cannot start %1").arg(binary);
        return false;
    }
    QElapsedTimer clock;
    clock.start();
    QString ignored;
    while (!api(QStringLiteral("GET"), QStringLiteral("/version"), QString(), &ignored)) {
        if (clock.elapsed() > 15000 || m_server.state() == QProcess::NotRunning) {
            QFile log(m_log);
            *error = QStringLiteral("toxiproxy did not answer: ") +
                     (log.open(QIODevice::ReadOnly) ? QString::fromUtf8(log.readAll()) : QString());
            return false;
        }
        QThread::msleep(50);
    }
    return api(QStringLiteral("POST"), QStringLiteral("/proxies"),
               QStringLiteral("{\"name\": \"mongo\", \"listen\": \"%1\", \"upstream\": \"%2\"}")
                   .arg(m_listen, upstream),
               error);
}

bool Toxiproxy::addToxic(const QString &name, const QString &type, const QString &stream,
                         const QString &attributes, QString *error)
{
    return api(QStringLiteral("POST"), QStringLiteral("/proxies/mongo/toxics"),
               QStringLiteral("{\"name\": \"%1\", \"type\": \"%2\", \"stream\": \"%3\", "
                              "\"toxicity\": 1.0, \"attributes\": %4}")
                   .arg(name, type, stream, attributes),
               error);
}

bool Toxiproxy::removeToxic(const QString &name, QString *error)
{
    return api(QStringLiteral("DELETE"), QStringLiteral("/proxies/mongo/toxics/") + name, QString(),
               error);
}

bool Toxiproxy::setEnabled(bool enabled, QString *error)
{
    return api(QStringLiteral("POST"), QStringLiteral("/proxies/mongo"),
               QStringLiteral("{\"enabled\": %1}")
                   .arg(enabled ? QStringLiteral("true") : QStringLiteral("false")),
               error);
}
