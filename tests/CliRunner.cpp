#include "CliRunner.h"

#include <QElapsedTimer>
#include <QProcess>

#include <csignal>
#include <sys/resource.h>

namespace {

CliRun run(const QString &program, const QStringList &args, int timeoutMs, qint64 fileSizeLimit,
           bool ignoreSigxfsz = true)
{
    QElapsedTimer clock;
    clock.start();
    QProcess p;
    if (fileSizeLimit > 0) { // the limit is for the files under test, not the analysis history
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("OE_HISTORY_DB"), QStringLiteral("off"));
        p.setProcessEnvironment(env);
    }
    if (fileSizeLimit > 0)
        p.setChildProcessModifier([fileSizeLimit, ignoreSigxfsz] {
            const rlimit limit{rlim_t(fileSizeLimit), rlim_t(fileSizeLimit)};
            ::setrlimit(RLIMIT_FSIZE, &limit);
            ::signal(SIGXFSZ, ignoreSigxfsz ? SIG_IGN : SIG_DFL);
        });
    p.start(program, args);
    if (!p.waitForFinished(timeoutMs))
        qFatal("CLI hung: %s", qPrintable(args.join(QLatin1Char(' '))));
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError()), clock.elapsed()};
}

} // namespace

CliRun runCli(const QStringList &args, int timeoutMs, qint64 fileSizeLimit)
{
    return run(qEnvironmentVariable("OE_CLI"), args, timeoutMs, fileSizeLimit);
}

CliRun runCliUnderUlimit(const QStringList &args, qint64 fileSizeLimit, int timeoutMs)
{
    return run(qEnvironmentVariable("OE_CLI"), args, timeoutMs, fileSizeLimit, false);
}

CliRun runCliThrough(const QString &program, const QStringList &prefix, const QStringList &args,
                     int timeoutMs)
{
    return run(program, prefix + args, timeoutMs, 0);
}
