#pragma once

#include "SourceError.h"

#include <QByteArray>
#include <QFile>
#include <QStringList>

#include <memory>
#include <vector>

namespace oe {

// A set of output files written under temporary names beside their final paths and renamed into
// place only when every one of them was written, flushed and synced: a failure half-way (a full
// disk, invalid input found late, a cancelled run) leaves no half-written file behind and
// replaces no file that was there before. Errors name the final path and the system's reason.
class StagedOutput
{
public:
    StagedOutput() = default;
    ~StagedOutput(); // discards whatever was not committed
    StagedOutput(const StagedOutput &) = delete;
    StagedOutput &operator=(const StagedOutput &) = delete;

    // A device writing to a temporary file for `finalPath`, whose directory must exist; nullptr
    // with `error` set when it cannot be created. Valid until commit() or discard().
    QIODevice *add(const QString &finalPath, SourceError *error);
    // Writes all of `bytes` to a device from add(); false with `error` set when it cannot.
    bool write(QIODevice *device, const QByteArray &bytes, SourceError *error);
    // Flushes, syncs and closes every file, then renames each into place in the order they were
    // added (so the last one added appears last). Lists the final paths in `written`.
    bool commit(QStringList *written, SourceError *error);
    // Removes the temporary files.
    void discard();

private:
    struct Entry
    {
        QString finalPath;
        QString tempPath;
        std::unique_ptr<QFile> file;
    };
    Entry *entryOf(const QIODevice *device);
    bool finish(Entry &entry, SourceError *error);
    static SourceError failure(const Entry &entry, const QString &what, int errorNumber);

    std::vector<Entry> m_entries;
};

} // namespace oe
