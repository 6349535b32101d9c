#pragma once

#include <QString>

namespace oe {

// How to reach a cluster: a mongodb:// or mongodb+srv:// URI (parsed by libmongoc) plus the
// TLS files a form or command line may give separately. The URI's own options win over
// the defaults here.
struct ConnectionSettings
{
    QString uri; // may hold a password: never show it unredacted
    QString tlsCaFile;
    QString tlsCertificateKeyFile;
    bool tlsAllowInvalidHostnames = false;
    int serverSelectionTimeoutMs = 10000;
    int connectTimeoutMs = 10000;
    int socketTimeoutMs = 120000;
    QString appName = QStringLiteral("outlier-explorer");
    // Wire compressors to ask for ("zstd,snappy,zlib": the server uses the first of them it
    // has) where the URI names none; empty: the URI's choice. An analysis that reads every
    // document across a network asks for them (MeasureSetup).
    QString compressors;

    bool operator==(const ConnectionSettings &) const = default;
};

} // namespace oe
