#pragma once

#include <QByteArray>
#include <QString>

#include <map>

class QProcess;

namespace fixtures {

// Every CSV report an analyze run wrote into `dir`, by file name, with summary.csv's `seconds`
// row left out (the one figure two runs of the same scan do not share); empty if one cannot be
// read.
std::map<QString, QByteArray> reportFiles(const QString &dir);

// Waits until the scan `process` runs (with --checkpoint-ms 0, so every batch of every range
// rewrites its state file in `stateDir`) has read documents in a typed range: the state has been
// written three times. The range of other _id types writes it at most twice on its own, and it
// may do so before the other ranges have connected. False when the process ended first or
// `timeoutMs` passed.
bool waitForScanProgress(const QProcess &process, const QString &stateDir, int timeoutMs = 60000);

} // namespace fixtures
