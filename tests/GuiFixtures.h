#pragma once

#include "BsonFixtures.h"
#include "explore/AnalysisResult.h"

#include <QString>
#include <QStringList>

class QWidget;

namespace oe {
class MainWindow;
}

namespace guifixtures {

// Writes a demo dataset (DemoDataGenerator, deterministic) into `dir`; its path.
QString demoDump(const QString &dir, const QString &dataset, std::uint64_t documents = 0);
// Analyses a dump in-process, the way the GUI's worker does (full scan unless told).
oe::AnalysisResult analyse(const QString &dumpPath,
                           oe::AnalysisOptions::Mode mode = oe::AnalysisOptions::Mode::Full,
                           std::uint64_t count = 0);
// Independent expectations from plain libbson (fixtures::readReference).
std::uint64_t documentsLargerThan(const QList<fixtures::ReferenceDocument> &docs,
                                  std::uint64_t bytes);
std::uint64_t arraysLongerThan(const QList<fixtures::ReferenceDocument> &docs, const QString &path,
                               std::uint64_t length);
std::uint64_t elementsBeyond(const QList<fixtures::ReferenceDocument> &docs, const QString &path,
                             std::uint64_t keep);
// Shows `window` (non-interactive: errors go to its signal, not a dialog) and adds a connection
// named "ferretdb" to `uri`; its databases load in the background (connectionLoaded says when).
void showConnecting(oe::MainWindow &window, const QString &uri);
// Alt+letter clashes among what `window` shows now: its visible buttons, labels with a buddy,
// and `more` (menu titles, tab texts); one line per clash ("Alt+a: &Analysis, &Arrays").
QStringList mnemonicClashes(QWidget *window, const QStringList &more = {});
} // namespace guifixtures
