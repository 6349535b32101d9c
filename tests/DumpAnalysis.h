#pragma once

#include "explore/AnalysisResult.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace fixtures {

// Writes `docs` as the dump `path` and analyses it whole through the one session the window and
// the CLI run (`threads` workers, seed 42); aborts the test run if the file cannot be written.
oe::AnalysisResult analyseDocuments(const QString &path, const QList<QByteArray> &docs,
                                    const oe::ShapeOptions &shape = {}, int threads = 2);

} // namespace fixtures
