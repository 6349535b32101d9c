#include "source/internal/GzipReader.h"

#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace oe {

struct GzipReader::Stream
{
    z_stream z{};
    bool initialised = false;
    ~Stream()
    {
        if (initialised)
            inflateEnd(&z);
    }
};

GzipReader::GzipReader(int fd) : m_fd(fd), m_stream(std::make_unique<Stream>()), m_input(256 * 1024)
{
}

GzipReader::~GzipReader() = default;

bool GzipReader::refill(QString *problem)
{
    z_stream &z = m_stream->z;
    if (m_available > 0 && z.next_in != m_input.data())
        std::memmove(m_input.data(), z.next_in, m_available);
    for (;;) {
        const ssize_t n = ::read(m_fd, m_input.data() + m_available, m_input.size() - m_available);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            *problem =
                QStringLiteral("read failed: %1").arg(QString::fromLocal8Bit(std::strerror(errno)));
            return false;
        }
        m_fileEnded = n == 0;
        m_available += std::size_t(n);
        m_compressedRead += std::uint64_t(n);
        z.next_in = m_input.data();
        z.avail_in = uInt(m_available);
        return true;
    }
}

// After a member's end: the clean end of the file, or the magic bytes of the next member.
GzipReader::Status GzipReader::startNextMember(QString *problem)
{
    while (m_available < 2 && !m_fileEnded)
        if (!refill(problem))
            return Status::Failed;
    if (m_available == 0)
        return Status::End;
    const std::uint8_t *next = m_stream->z.next_in;
    if (m_available < 2 || next[0] != 0x1f || next[1] != 0x8b) {
        *problem = QStringLiteral("%1 byte(s) of trailing data after the gzip stream at compressed "
                                  "byte %2 (not another gzip member)")
                       .arg(m_available)
                       .arg(compressedOffset());
        return Status::Failed;
    }
    inflateReset(&m_stream->z);
    m_memberEnded = false;
    return Status::Data;
}

GzipReader::Status GzipReader::read(std::uint8_t *into, std::size_t size, std::size_t *produced,
                                    QString *problem)
{
    if (!m_deferredProblem.isEmpty()) {
        *problem = m_deferredProblem;
        return Status::Failed;
    }
    const Status status = inflateInto(into, size, produced, problem);
    if (status == Status::Failed && *produced > 0) {
        // Hand out what was inflated before the problem; report it on the next call.
        m_deferredProblem = *problem;
        return Status::Data;
    }
    return status;
}

GzipReader::Status GzipReader::inflateInto(std::uint8_t *into, std::size_t size,
                                           std::size_t *produced, QString *problem)
{
    z_stream &z = m_stream->z;
    *produced = 0;
    const auto fail = [&](const QString &why) {
        *produced = std::size_t(z.next_out - into);
        *problem = why;
        return Status::Failed;
    };
    if (!m_stream->initialised) {
        if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) // 16: gzip wrapper only
            return fail(QStringLiteral("cannot start the gzip decoder"));
        m_stream->initialised = true;
    }
    z.next_out = into;
    z.avail_out = uInt(std::min<std::size_t>(size, 1u << 30));
    while (z.avail_out > 0) {
        if (m_memberEnded) {
            const Status next = startNextMember(problem);
            if (next == Status::Failed)
                return fail(*problem);
            if (next == Status::End)
                break;
        }
        if (m_available == 0) {
            if (m_fileEnded)
                return fail(QStringLiteral("truncated gzip stream: the file ends at compressed "
                                           "byte %1, before the stream's end marker and checksum")
                                .arg(m_compressedRead));
            if (!refill(problem))
                return fail(*problem);
            continue;
        }
        const int ret = inflate(&z, Z_NO_FLUSH);
        m_available = z.avail_in;
        if (ret == Z_STREAM_END) {
            m_memberEnded = true;
        } else if (ret != Z_OK && ret != Z_BUF_ERROR) {
            // zlib's words for a failed trailer check are terse: name the checksum.
            const QString why = QString::fromLatin1(z.msg ? z.msg : "inflate failed");
            return fail(QStringLiteral("corrupt gzip stream at compressed byte %1: %2")
                            .arg(compressedOffset())
                            .arg(why == QLatin1String("incorrect data check")
                                     ? QStringLiteral("CRC-32 mismatch (the data is damaged)")
                                 : why == QLatin1String("incorrect length check")
                                     ? QStringLiteral("length mismatch in the gzip trailer")
                                     : why));
        }
    }
    *produced = std::size_t(z.next_out - into);
    return *produced == 0 ? Status::End : Status::Data;
}

} // namespace oe
