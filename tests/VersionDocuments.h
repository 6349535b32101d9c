#pragma once

#include <QByteArray>
#include <QList>

// Documents of three schema versions side by side (issue 39), 1,000 in all:
// - 900 of version 1 {_id: i, schema_version: 1, name, address: "<street>"}, three of them
//   (_id 10, 20, 30) with a rare legacy_note: a real rare field within version 1;
// - 92 of version 2, address now {street, city} and a phone string; two of them (_id 950, 960)
//   still hold the address as a string: a real mixed type within version 2;
// - 8 of version 3, phone now an array of strings, and an email.
// Across the whole collection email is rare (0.8 %), address mixes string and object, phone
// string and array: differences between versions, not defects. `unversioned` of the version 1
// documents (the first ones) have no schema_version at all, as a lazy migration leaves them.
namespace fixtures {

QList<QByteArray> versionedDocuments(int unversioned = 0);

} // namespace fixtures
