#pragma once

#include <QString>
#include <QStringList>

namespace fixtures {

// A `rewrite` (`args`: the command and its options, without --yes) under kill -9: applied in
// paced rounds and killed at random moments (4 times on mongod, 2 on FerretDB, whose
// connections are not listed, so a resumed run waits a settling time for each), resumed to the
// end, verified over `documents` entries, then (mongod) killed twice rolling back and rolled
// back. Empty when every step went as it must; else what did not.
QString rewriteSurvivesKills(const QStringList &args, int documents, bool mongod);

} // namespace fixtures
