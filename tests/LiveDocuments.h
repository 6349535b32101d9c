#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <bson/bson.h>

#include <cstdint>
#include <map>

// Reading documents back for live tests, with plain libbson and the core's collection reader:
// values are raw BSON (the type byte, then the value's bytes), so they compare exactly.
namespace fixtures {

// The connection string of a running FerretDB fixture variant (OE_LIVE_DIR/<variant>/env), or
// empty.
QString liveUri(const QString &variant = QStringLiteral("plain"));
// The official drivers packaging/install-codegen-drivers.sh installed (node/, python/, java/,
// go/): $OE_CACHE_DIR (~/.cache/outlier-explorer)/codegen-drivers.
QString codegenDrivers();
// Every document of a collection by _id (raw value); empty if it cannot be read.
std::map<QByteArray, QByteArray> readCollection(const QString &uri, const QString &database,
                                                const QString &collection);

// Runs a database command given as extended JSON (e.g. an update the "application" makes);
// false with `error` set when it fails or the server answers ok: 0 or with write errors.
bool command(const QString &uri, const QString &database, const QByteArray &json, QString *error,
             QByteArray *reply = nullptr);

// mongod's profiler on for every operation of `database`, into a fresh system.profile large
// enough for thousands (its default of 1 MB keeps a few hundred); false with `error` set when
// the server refuses (FerretDB has no profiler).
bool startProfiling(const QString &uri, const QString &database, QString *error);
bool stopProfiling(const QString &uri, const QString &database, QString *error);
// How many profiled operations on `ns` match `filter` (extended JSON, e.g. {"op": "query"});
// -1 when it cannot be read.
std::int64_t profiled(const QString &uri, const QString &database, const QString &ns,
                      const QString &filter);

// Whether `collection` exists in `database` (listCollections); false when it cannot be told.
bool collectionExists(const QString &uri, const QString &database, const QString &collection);

QByteArray rawValue(const bson_iter_t *it);
QByteArray fieldOf(const QByteArray &doc, const QString &key);    // top-level field; empty if none
std::int64_t numberOf(const QByteArray &doc, const QString &key); // -1 if absent or not a number
QList<QByteArray> elementsOf(const QByteArray &doc, const QString &key); // a top-level array
QStringList keysOf(const QByteArray &doc); // the names of a document's top-level fields, in order

} // namespace fixtures
