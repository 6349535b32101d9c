#pragma once

#include <QByteArray>
#include <QList>

// Documents built to hold every schema outlier of shape (issue 37), or none: 1,000 documents
// {_id: i, name, amount: int, codes: [ints], daily: {<date>: {views}}...}; with outliers, a
// field in 3 documents (legacyFlag), amount a string in 2, a string among the codes of 2,
// payloads of 300 KB in 2, one document with 300 more fields and one nested 50 levels deep.
// The daily objects are keyed by dates in both (keys used as data are the collection's shape,
// not an outlier the plain documents lack): `withOutliers` false drops them too.
namespace fixtures {

QList<QByteArray> shapeDocuments(bool withOutliers);

} // namespace fixtures
