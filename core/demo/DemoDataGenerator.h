#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <cstdint>

namespace oe {

// Deterministic demo datasets modelled on the seed texts, written as mongodump .bson files
// (one file per collection, ready for mongorestore or `outlier-explorer-cli import`).
class DemoDataGenerator
{
public:
    struct Dataset
    {
        QString name; // also the collection and file name
        QString description;
        std::uint64_t defaultDocuments;
        bool inDemo; // part of the built-in demo (the benchmark shape is not)
    };

    // The seed of the built-in demo: the desktop app's demo and `demo-data` write the same data.
    static constexpr std::uint64_t kDemoSeed = 42;

    static QList<Dataset> datasets();

    // Writes `path` (atomically). documents == 0 means the dataset's default.
    static bool write(const QString &dataset, const QString &path, std::uint64_t documents,
                      std::uint64_t seed, QString *error);
    // Writes every demo dataset into `directory` as <name>.bson.
    static bool writeDemo(const QString &directory, std::uint64_t seed, QStringList *written,
                          QString *error);
    // The demo's files in `directory`, written only if one is missing (the data is
    // deterministic, so a later start reuses them). Their paths in `files`.
    static bool ensureDemo(const QString &directory, QStringList *files, QString *error);
};

} // namespace oe
