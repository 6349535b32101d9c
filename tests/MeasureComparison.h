#pragma once

// What tst_servermeasure compares: a client-side run's reports against a server-side run's,
// and the server's raw replies to a measurement projection.
#include "analysis/SourceRef.h"
#include "measure/MeasurePlan.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <map>

namespace fixtures {

// fields.csv rows by path.
std::map<QString, QStringList> fieldRows(const QString &dir);
// A CSV line's column as an int.
int column(const QString &line, int index);
// What differs between the client run's reports and the server run's, beyond what the server
// run states it does not measure (empty when nothing does): fields.csv has no row of a field
// without arrays, and of an array inside another's elements (its present column blank) the
// count and lengths only; recommendations.csv has no size target for those.
QString measureDifferences(const QString &client, const QString &server);
// The server's replies to the projection of `plan`, in natural order (a line naming the failure
// when the read fails).
QList<QByteArray> measuredBy(const oe::SourceRef &source, const oe::MeasurePlan &plan);

} // namespace fixtures
