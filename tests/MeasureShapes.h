#pragma once

#include <QByteArray>

namespace fixtures {

// 2,000 documents of every awkward shape a server-side measurement must see through: an
// `activities` that is sometimes a string, an object, empty or missing, scalar and null
// elements, a `meta` that is sometimes an array, `_id`s of fourteen BSON types, and large
// arrays at paths 0.05 % of documents have (`rare`, `activities.attachments`); with `oddKeys`,
// arrays under keys with dots and a leading `$` too (`a.b`, `odd.k.y`, `odd.$z`, `$dollar`).
QByteArray awkwardDump(bool oddKeys);
// 600 documents with one array path two objects down (`p.q.items`): `p` sometimes a string,
// `q` sometimes missing, `items` sometimes a string, empty or holding arrays, and beside it
// values of every BSON type; for the server's removal of a nested field ($setField,
// $unsetField) against its wrapping.
QByteArray nestedDump();
// 300 documents whose bytes are mostly a 2 KB string beside a short `tags` array: a one-path
// plan that asks for the array's bytes by wrapping (removal would copy the string).
QByteArray restHeavyDump();
// 50 small documents and one of exactly 16 MiB whose array holds an array.
QByteArray sixteenMebibyteDump();

} // namespace fixtures
