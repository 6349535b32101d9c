#include "CliRunner.h"

#include <QElapsedTimer>
#include <QProcess>

CliRun runCli(const QStringList &args, int timeoutMs)
{
    QElapsedTimer clock;
    clock.start();
    QProcess p;
    p.start(qEnvironmentVariable("OE_CLI"), args);
    if (!p.waitForFinished(timeoutMs))
        qFatal("CLI hung: %s", qPrintable(args.join(QLatin1Char(' '))));
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError()), clock.elapsed()};
}
