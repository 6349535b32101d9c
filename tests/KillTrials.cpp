#include "KillTrials.h"

#include <QProcess>
#include <QRandomGenerator>

QString KillTrials::summary() const
{
    return QStringLiteral("%1 run(s) killed, %2 finished first%3")
        .arg(killed)
        .arg(finished)
        .arg(lastFailure.isEmpty() ? QString() : QStringLiteral(" (") + lastFailure + u')');
}

KillTrials KillTrials::run(const QString &program, const QStringList &args, int kills)
{
    KillTrials trials;
    while (trials.killed < kills) {
        QProcess p;
        p.start(program, args);
        if (!p.waitForStarted())
            break;
        const int delay = 30 + int(QRandomGenerator::global()->bounded(570));
        if (p.waitForFinished(delay)) {
            ++trials.finished;
            if (p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0)
                break;
            trials.lastFailure = QStringLiteral("exit %1: %2")
                                     .arg(p.exitCode())
                                     .arg(QString::fromUtf8(p.readAllStandardError()).trimmed());
            continue;
        }
        p.kill();
        p.waitForFinished();
        ++trials.killed;
    }
    qInfo("%s", qPrintable(trials.summary()));
    return trials;
}
