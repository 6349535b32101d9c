#pragma once

#include <QString>
#include <QStringList>

// Runs the CLI under test (the OE_CLI environment variable) and collects what it printed.
struct CliRun
{
    int exitCode = -1; // -1 when it crashed or was killed
    QString out, err;
    qint64 ms = 0; // wall time
};

// Aborts the test run (qFatal) if the CLI has not finished after `timeoutMs`. A positive
// `fileSizeLimit` caps every file the CLI writes at that many bytes (RLIMIT_FSIZE, SIGXFSZ
// ignored): a write past it fails with EFBIG, as a write to a full disk fails with ENOSPC.
CliRun runCli(const QStringList &args, int timeoutMs = 600000, qint64 fileSizeLimit = 0);
// The same cap as a shell's `ulimit -f` sets it: SIGXFSZ left as it is (its default ends the
// process), so the test sees what the CLI itself does about it.
CliRun runCliUnderUlimit(const QStringList &args, qint64 fileSizeLimit, int timeoutMs = 600000);
// The same, started through `program` with `prefix` before the arguments (e.g. setpriv ... CLI).
CliRun runCliThrough(const QString &program, const QStringList &prefix, const QStringList &args,
                     int timeoutMs = 600000);
