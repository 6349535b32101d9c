#include "LiveServer.h"

#include <QFile>

namespace fixtures {

LiveServer LiveServer::open(const QString &variant)
{
    LiveServer server;
    server.m_file =
        qEnvironmentVariable("OE_LIVE_DIR") + QLatin1Char('/') + variant + QStringLiteral("/env");
    QFile f(server.m_file);
    if (!f.open(QIODevice::ReadOnly))
        return server;
    for (const QByteArray &line : f.readAll().split('\n')) {
        const int eq = line.indexOf('=');
        if (eq > 0)
            server.m_env.insert(QString::fromUtf8(line.left(eq)),
                                QString::fromUtf8(line.mid(eq + 1)).trimmed());
    }
    return server;
}

QString LiveServer::missing() const
{
    return QStringLiteral("no live server fixture at %1 (OE_LIVE_DIR; see tests/live)").arg(m_file);
}

} // namespace fixtures
