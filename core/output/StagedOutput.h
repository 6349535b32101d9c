#pragma once

#include "output/StagedFile.h"
#include "source/SourceError.h"

#include <QByteArray>
#include <QStringList>

#include <memory>
#include <vector>

namespace oe {

// Every file the app writes goes through here (reports, CSV, code, dumps, scan state): written
// under a temporary name beside its final path and renamed into place only when every file of
// the set was written, flushed and synced. A failure half-way (a full disk, invalid input found
// late, a cancelled run) leaves no half-written file behind and replaces no file that was there
// before. The rename replaces a symbolic link at the final path with the file, never writes
// through it: `--out` pointing at a link to the input leaves the input as it was. A path that is
// (or links to) a character device or a pipe (/dev/stdout, /dev/null, `>(gzip)`) is written
// directly: there is nothing to replace, and its write errors (/dev/full) are reported.
// Folders, block devices and sockets are refused. Errors name the final path and the system's
// reason.
class StagedOutput
{
public:
    StagedOutput() = default;
    ~StagedOutput(); // discards whatever was not committed
    StagedOutput(const StagedOutput &) = delete;
    StagedOutput &operator=(const StagedOutput &) = delete;

    // `bytes` written to `path` whole or not at all; false with `error` set.
    static bool writeFile(const QString &path, const QByteArray &bytes, SourceError *error);

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
        QString tempPath; // empty when written directly (a device or a pipe)
        std::unique_ptr<StagedFile> file;
    };
    Entry *entryOf(const QIODevice *device);
    bool finish(Entry &entry, SourceError *error);
    static SourceError failure(const Entry &entry, const QString &what, int errorNumber);

    std::vector<Entry> m_entries;
};

} // namespace oe
