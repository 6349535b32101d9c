#include "StagedOutput.h"

#include <QDir>
#include <QFileInfo>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
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
    Entry entry{finalPath, temporaryPathFor(finalPath), std::make_unique<QFile>()};
    const QByteArray native = QFile::encodeName(entry.tempPath);
    // 0666 less the umask, like any file the user creates (a temporary file would be 0600).
    const int fd = ::open(native.constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) {
        *error = failure(entry, QStringLiteral("cannot create"), errno);
        return nullptr;
    }
    if (!entry.file->open(fd, QIODevice::WriteOnly, QFileDevice::AutoCloseHandle)) {
        ::close(fd);
        ::unlink(native.constData());
        *error = SourceError::io(finalPath,
                                 QStringLiteral("cannot open: %1").arg(entry.file->errorString()));
        return nullptr;
    }
    m_entries.push_back(std::move(entry));
    return m_entries.back().file.get();
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
    errno = 0;
    if (entry->file->write(bytes) == bytes.size())
        return true;
    *error = failure(*entry, QStringLiteral("cannot write"), errno ? errno : EIO);
    return false;
}

// A write that failed earlier (through the device directly) shows here as the file's error.
bool StagedOutput::finish(Entry &entry, SourceError *error)
{
    errno = 0;
    if (entry.file->error() != QFileDevice::NoError) {
        *error = SourceError::io(entry.finalPath,
                                 QStringLiteral("cannot write: %1").arg(entry.file->errorString()));
        return false;
    }
    if (!entry.file->flush()) {
        *error = failure(entry, QStringLiteral("cannot write"), errno ? errno : EIO);
        return false;
    }
    if (::fsync(entry.file->handle()) != 0) {
        *error = failure(entry, QStringLiteral("cannot sync to disk"), errno);
        return false;
    }
    entry.file->close();
    if (entry.file->error() != QFileDevice::NoError) {
        *error = SourceError::io(entry.finalPath,
                                 QStringLiteral("cannot close: %1").arg(entry.file->errorString()));
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
        e.file->close();
        if (!e.tempPath.isEmpty())
            ::unlink(QFile::encodeName(e.tempPath).constData());
    }
    m_entries.clear();
}

} // namespace oe
