#pragma once

#include "BsonFixtures.h"
#include "explore/AnalysisResult.h"

#include <QString>
#include <QStringList>

class QWidget;

namespace oe {
class MainWindow;
}

namespace oe {
class SourceState;
class Workspace;
} // namespace oe

namespace guifixtures {

// Writes a demo dataset (DemoDataGenerator, deterministic) into `dir`; its path.
QString demoDump(const QString &dir, const QString &dataset, std::uint64_t documents = 0);
// The state `workspace` keeps for the source of `result`, holding `result` (as after the
// window analysed it).
oe::SourceState &stateWith(oe::Workspace &workspace, const oe::AnalysisResult &result);
// The GUI's path for one analysis: a Workspace runs it (as the window does) and this waits
// for its result (an empty result if it never came).
oe::AnalysisResult analyseInWorkspace(const oe::AnalysisRequest &request);
// Analyses a dump in-process, the way the window does (a Workspace; full scan unless told).
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
// Shows `window` (non-interactive) with the dump at `dump` selected, set to a full scan.
void openForFullScan(oe::MainWindow &window, const QString &dump);
// Alt+letter clashes among what `window` shows now: its visible buttons, labels with a buddy,
// and `more` (menu titles, tab texts); one line per clash ("Alt+a: &Analysis, &Arrays").
QStringList mnemonicClashes(QWidget *window, const QStringList &more = {});
// What a user would see squeezed in `window` as it is laid out now: a visible control (button,
// check box, label with text, spin box, combo box, line edit) that overlaps a sibling control,
// runs past its parent's edge, or is narrower than its own minimum; one line each.
QStringList overlappingControls(QWidget *window);
// A count the window shows ("1,234" in the user's locale) as a CSV report writes it ("1234");
// the text itself if it is not a count.
QString asCsvNumber(const QString &shown);
// Whether a size the window shows ("812 B", or "12.3 KiB": one decimal of an IEC unit) stands
// for `bytes`, within the half of its last digit that the rounding may hide.
bool showsBytes(const QString &shown, std::uint64_t bytes);
} // namespace guifixtures
