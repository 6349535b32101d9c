#include "output/StagedOutput.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace oe {

namespace {

QString systemReason(int errorNumber)
{
    return QString::fromLocal8Bit(std::strerror(errorNumber));
}

// A name no other writer uses: hidden, beside the final file (so the rename stays on one file
// system), marked as ours.
QString temporaryPathFor(const QString &finalPath)
{
    static std::atomic<unsigned> counter{0};
    const QFileInfo info(finalPath);
    return info.dir().filePath(QStringLiteral(".%1.oe-%2-%3.tmp")
                                   .arg(info.fileName())
                                   .arg(::getpid())
                                   .arg(counter.fetch_add(1)));
}

// What is at `native` now decides how it is written: nothing there, a regular file or a symbolic
// link: staged and renamed over it (the link itself replaced, its target untouched); a character
// device or a pipe, also through a link: written directly. `keepMode`: a replaced file's
// permissions, kept. False with `problem` set for what cannot be written over.
bool targetOf(const QByteArray &native, bool *direct, mode_t *keepMode, QString *problem)
{
    *direct = false;
    *keepMode = 0;
    struct stat link = {};
    if (::lstat(native.constData(), &link) != 0)
        return true; // nothing there yet, or unreachable: creating the temporary file says why
    struct stat target = {};
    if (::stat(native.constData(), &target) == 0 &&
        (S_ISCHR(target.st_mode) || S_ISFIFO(target.st_mode))) {
        *direct = true;
        return true;
    }
    if (S_ISDIR(link.st_mode)) {
        *problem = QStringLiteral("is a folder");
        return false;
    }
    if (S_ISREG(link.st_mode))
        *keepMode = link.st_mode & 07777;
    else if (!S_ISLNK(link.st_mode)) {
        *problem = QStringLiteral("is not a regular file");
        return false;
    }
    return true;
}

} // namespace

StagedOutput::~StagedOutput()
{
    discard();
}

SourceError StagedOutput::failure(const Entry &entry, const QString &what, int errorNumber)
{
    return SourceError::io(entry.finalPath,
                           QStringLiteral("%1: %2").arg(what, systemReason(errorNumber)));
}

QIODevice *StagedOutput::add(const QString &finalPath, SourceError *error)
{
    Entry entry{finalPath, QString(), nullptr};
    bool direct = false;
    mode_t keepMode = 0;
    QString problem;
    if (!targetOf(QFile::encodeName(finalPath), &direct, &keepMode, &problem)) {
        *error = SourceError::io(finalPath, QStringLiteral("cannot write: %1").arg(problem));
        return nullptr;
    }
    int fd = -1;
    if (direct) {
        fd = ::open(QFile::encodeName(finalPath).constData(), O_WRONLY | O_CLOEXEC);
    } else {
        entry.tempPath = temporaryPathFor(finalPath);
        // 0666 less the umask, like any file the user creates (a temporary file would be 0600);
        // a file replaced keeps its permissions.
        fd = ::open(QFile::encodeName(entry.tempPath).constData(),
                    O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0 && keepMode != 0)
            (void)::fchmod(fd, keepMode);
    }
    if (fd < 0) {
        *error = failure(
            entry, direct ? QStringLiteral("cannot open") : QStringLiteral("cannot create"), errno);
        return nullptr;
    }
    entry.file = std::make_unique<StagedFile>(fd);
    m_entries.push_back(std::move(entry));
    return m_entries.back().file.get();
}

bool StagedOutput::writeFile(const QString &path, const QByteArray &bytes, SourceError *error)
{
    StagedOutput output;
    QIODevice *device = output.add(path, error);
    return device && output.write(device, bytes, error) && output.commit(nullptr, error);
}

StagedOutput::Entry *StagedOutput::entryOf(const QIODevice *device)
{
    for (Entry &e : m_entries)
        if (e.file.get() == device)
            return &e;
    return nullptr;
}

bool StagedOutput::write(QIODevice *device, const QByteArray &bytes, SourceError *error)
{
    Entry *entry = entryOf(device);
    if (!entry)
        return false;
    if (entry->file->write(bytes) == bytes.size())
        return true;
    *error = failure(*entry, QStringLiteral("cannot write"), entry->file->errorNumber());
    return false;
}

// A write that failed earlier (through the device directly) shows here as the file's error.
bool StagedOutput::finish(Entry &entry, SourceError *error)
{
    if (!entry.file->flushBuffer()) {
        *error = failure(entry, QStringLiteral("cannot write"), entry.file->errorNumber());
        return false;
    }
    // A device or a pipe has nothing to sync (and refuses fsync).
    if (!entry.tempPath.isEmpty() && ::fsync(entry.file->handle()) != 0) {
        *error = failure(entry, QStringLiteral("cannot sync to disk"), errno);
        return false;
    }
    if (!entry.file->closeFile()) {
        *error = failure(entry, QStringLiteral("cannot close"), entry.file->errorNumber());
        return false;
    }
    return true;
}

bool StagedOutput::commit(QStringList *written, SourceError *error)
{
    for (Entry &e : m_entries) {
        if (!finish(e, error)) {
            discard();
            return false;
        }
    }
    for (Entry &e : m_entries) {
        if (e.tempPath.isEmpty()) { // written directly
            if (written)
                *written << e.finalPath;
            continue;
        }
        if (::rename(QFile::encodeName(e.tempPath).constData(),
                     QFile::encodeName(e.finalPath).constData()) != 0) {
            *error = failure(e, QStringLiteral("cannot move into place"), errno);
            discard();
            return false;
        }
        e.tempPath.clear();
        if (written)
            *written << e.finalPath;
    }
    m_entries.clear();
    return true;
}

void StagedOutput::discard()
{
    for (Entry &e : m_entries) {
        e.file->closeFile();
        if (!e.tempPath.isEmpty())
            ::unlink(QFile::encodeName(e.tempPath).constData());
    }
    m_entries.clear();
}

} // namespace oe
