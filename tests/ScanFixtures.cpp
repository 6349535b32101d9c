#include "ScanFixtures.h"

#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QList>
#include <QProcess>
#include <QTest>

#include <set>

namespace fixtures {

std::map<QString, QByteArray> reportFiles(const QString &dir)
{
    std::map<QString, QByteArray> files;
    const QDir d(dir);
    for (const QString &name : d.entryList({QStringLiteral("*.csv")}, QDir::Files)) {
        QFile f(d.filePath(name));
        if (!f.open(QIODevice::ReadOnly))
            return {};
        QByteArray bytes = f.readAll();
        if (name == QLatin1String("summary.csv")) {
            QList<QByteArray> lines = bytes.split('\n');
            lines.removeIf([](const QByteArray &l) { return l.startsWith("seconds,"); });
            bytes = lines.join('\n');
        }
        files[name] = bytes;
    }
    return files;
}

bool waitForScanProgress(const QProcess &process, const QString &stateDir, int timeoutMs)
{
    QElapsedTimer waited;
    waited.start();
    std::set<QDateTime> versions;
    while (versions.size() < 3 && process.state() != QProcess::NotRunning &&
           waited.elapsed() < timeoutMs) {
        const QDir dir(stateDir);
        const QStringList files = dir.entryList({QStringLiteral("*.oescan")}, QDir::Files);
        if (!files.isEmpty())
            versions.insert(QFileInfo(dir.filePath(files.first())).lastModified());
        QTest::qWait(1);
    }
    return versions.size() >= 3 && process.state() == QProcess::Running;
}

} // namespace fixtures
