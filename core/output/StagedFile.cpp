#include "output/StagedFile.h"

#include <cerrno>
#include <unistd.h>

namespace oe {

namespace {
constexpr qsizetype kBufferBytes = 64 * 1024;
}

StagedFile::StagedFile(int fd) : m_fd(fd)
{
    QIODevice::open(QIODevice::WriteOnly | QIODevice::Unbuffered);
}

StagedFile::~StagedFile()
{
    closeFile();
}

bool StagedFile::writeOut(const char *data, qint64 size)
{
    while (size > 0 && m_errno == 0) {
        const ssize_t n = ::write(m_fd, data, std::size_t(size));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) // a short write is retried: the next one says why (EFBIG, ENOSPC)
            m_errno = n < 0 ? errno : EIO;
        else {
            data += n;
            size -= n;
        }
    }
    return m_errno == 0;
}

qint64 StagedFile::writeData(const char *data, qint64 size)
{
    if (m_errno != 0 || m_fd < 0)
        return -1;
    if (m_buffer.size() + size > kBufferBytes && !flushBuffer())
        return -1;
    if (size >= kBufferBytes)
        return writeOut(data, size) ? size : -1;
    m_buffer.append(data, qsizetype(size));
    return size;
}

bool StagedFile::flushBuffer()
{
    if (m_buffer.isEmpty())
        return m_errno == 0;
    const bool ok = writeOut(m_buffer.constData(), m_buffer.size());
    m_buffer.clear();
    return ok;
}

bool StagedFile::closeFile()
{
    if (m_fd < 0)
        return m_errno == 0;
    QIODevice::close();
    const int fd = m_fd;
    m_fd = -1;
    if (::close(fd) != 0 && m_errno == 0)
        m_errno = errno;
    return m_errno == 0;
}

} // namespace oe
