#pragma once

#include <QString>

namespace fixtures {

// Reshapes the collections tst_servertally imports (TallyReshapes.cpp says how); the first
// failing command's error, empty when every one ran.
QString reshapeTallyCollections(const QString &uri, const QString &database);

} // namespace fixtures
