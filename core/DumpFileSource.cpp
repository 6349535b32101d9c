#include "DumpFileSource.h"

#include <QFileInfo>

#include <bson/bson.h>
#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace oe {

struct DumpFileSource::Input
{
    int fd = -1;
    gzFile gz = nullptr;
    ~Input()
    {
        if (gz)
            gzclose(gz); // also closes fd
        else if (fd >= 0)
            ::close(fd);
    }
};

DumpFileSource::DumpFileSource(QString path) : m_path(std::move(path)) {}
DumpFileSource::~DumpFileSource() = default;

QString DumpFileSource::displayName() const
{
    return m_path;
}

std::optional<std::uint64_t> DumpFileSource::totalBytes() const
{
    if (m_compressed)
        return std::nullopt;
    return m_fileSize;
}

SourceError DumpFileSource::fault(const QString &message, std::uint64_t docIndex,
                                  std::uint64_t offset) const
{
    return SourceError::invalidData(m_path, message, std::int64_t(docIndex), std::int64_t(offset));
}

bool DumpFileSource::open(SourceError *error)
{
    m_input.reset();
    m_carry.clear();
    m_consumed = 0;
    m_nextIndex = 0;
    m_eof = false;

    const QFileInfo info(m_path);
    if (info.isDir()) {
        *error = SourceError::io(m_path, QStringLiteral("is a directory, not a .bson dump file"));
        return false;
    }
    const QByteArray native = QFile::encodeName(m_path);
    const int fd = ::open(native.constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        *error = SourceError::io(
            m_path,
            QStringLiteral("cannot open: %1").arg(QString::fromLocal8Bit(std::strerror(errno))));
        return false;
    }
    auto input = std::make_unique<Input>();
    input->fd = fd;
    struct stat st
    {
    };
    if (::fstat(fd, &st) == 0)
        m_fileSize = std::uint64_t(st.st_size);
    if (m_fileSize == 0) {
        *error = SourceError::invalidData(m_path, QStringLiteral("empty file: no BSON documents"),
                                          -1, 0);
        return false;
    }
    std::uint8_t magic[2] = {0, 0};
    const ssize_t got = ::pread(fd, magic, 2, 0);
    m_compressed = got == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
    if (m_compressed) {
        input->gz = gzdopen(fd, "rb");
        if (!input->gz) {
            *error = SourceError::io(m_path, QStringLiteral("cannot open gzip stream"));
            return false;
        }
        gzbuffer(input->gz, 256 * 1024);
    } else {
        ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    }
    m_input = std::move(input);
    return true;
}

bool DumpFileSource::rewind(SourceError *error)
{
    return open(error);
}

long DumpFileSource::readRaw(std::uint8_t *into, std::size_t size, SourceError *error)
{
    if (m_input->gz) {
        const int n = gzread(m_input->gz, into, unsigned(std::min<std::size_t>(size, 1u << 30)));
        if (n < 0) {
            int code = 0;
            const char *msg = gzerror(m_input->gz, &code);
            *error = SourceError::invalidData(
                m_path, QStringLiteral("corrupt gzip stream: %1").arg(QString::fromLatin1(msg)),
                std::int64_t(m_nextIndex), std::int64_t(m_consumed + m_carry.size()));
            return -1;
        }
        return n;
    }
    for (;;) {
        const ssize_t n = ::read(m_input->fd, into, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            *error =
                SourceError::io(m_path, QStringLiteral("read failed: %1")
                                            .arg(QString::fromLocal8Bit(std::strerror(errno))));
            return -1;
        }
        return long(n);
    }
}

DocumentSource::ReadResult DumpFileSource::read(DocumentBatch &batch, std::size_t targetBytes,
                                                SourceError *error)
{
    batch.documents.clear();
    batch.bytes.swap(m_carry);
    m_carry.clear();
    if (!m_input)
        return ReadResult::End;

    auto fill = [&](std::size_t wanted) -> bool {
        while (batch.bytes.size() < wanted && !m_eof) {
            const std::size_t old = batch.bytes.size();
            const std::size_t chunk = std::max<std::size_t>(wanted - old, 64 * 1024);
            batch.bytes.resize(old + chunk);
            const long n = readRaw(batch.bytes.data() + old, chunk, error);
            if (n < 0) {
                batch.bytes.resize(old);
                return false;
            }
            batch.bytes.resize(old + std::size_t(n));
            if (n == 0)
                m_eof = true;
        }
        return true;
    };

    bool readFailed = !fill(targetBytes);
    std::size_t pos = 0;
    bool faulted = false;
    while (!readFailed) {
        const std::size_t available = batch.bytes.size() - pos;
        const std::uint64_t fileOffset = m_consumed;
        if (available == 0 || (!batch.documents.empty() && pos >= targetBytes))
            break;
        if (available < 4) {
            if (!fill(batch.bytes.size() + (4 - available))) {
                readFailed = true;
                break;
            }
            if (batch.bytes.size() - pos < 4) {
                *error =
                    fault(QStringLiteral("truncated length prefix: %1 stray byte(s) at end of file")
                              .arg(batch.bytes.size() - pos),
                          m_nextIndex, fileOffset);
                faulted = true;
                break;
            }
            continue;
        }
        std::uint32_t le = 0;
        std::memcpy(&le, batch.bytes.data() + pos, 4);
        const std::uint32_t length = BSON_UINT32_FROM_LE(le);
        if (std::int32_t(length) < 5) {
            *error =
                fault(QStringLiteral("bad length prefix %1 (a BSON document is at least 5 bytes)")
                          .arg(std::int32_t(length)),
                      m_nextIndex, fileOffset);
            faulted = true;
            break;
        }
        if (!m_compressed && fileOffset + length > m_fileSize) {
            *error =
                fault(QStringLiteral("document length %1 runs past end of file (%2 bytes left)")
                          .arg(length)
                          .arg(m_fileSize - fileOffset),
                      m_nextIndex, fileOffset);
            faulted = true;
            break;
        }
        if (length > kMaxDocumentBytes) {
            *error = fault(QStringLiteral("implausible document length %1 (over %2 MiB)")
                               .arg(length)
                               .arg(kMaxDocumentBytes >> 20),
                           m_nextIndex, fileOffset);
            faulted = true;
            break;
        }
        if (available < length) {
            if (!batch.documents.empty() && batch.bytes.size() >= targetBytes)
                break; // the next batch starts with this document
            if (!fill(pos + length)) {
                readFailed = true;
                break;
            }
            if (batch.bytes.size() - pos < length) {
                *error =
                    fault(QStringLiteral("document length %1 runs past end of file (%2 bytes left)")
                              .arg(length)
                              .arg(batch.bytes.size() - pos),
                          m_nextIndex, fileOffset);
                faulted = true;
                break;
            }
            continue;
        }
        if (batch.bytes[pos + length - 1] != 0) {
            *error = fault(QStringLiteral("document of length %1 does not end with a NUL byte "
                                          "(corrupt length prefix or data)")
                               .arg(length),
                           m_nextIndex, fileOffset);
            faulted = true;
            break;
        }
        batch.documents.push_back({std::uint32_t(pos), length, m_nextIndex, fileOffset});
        ++m_nextIndex;
        pos += length;
        m_consumed += length;
    }
    if (!faulted && !readFailed && pos < batch.bytes.size())
        m_carry.assign(batch.bytes.data() + pos, batch.bytes.size() - pos);
    if (faulted || readFailed) {
        m_input.reset(); // nothing more is read from a faulty file
        return ReadResult::Error;
    }
    if (batch.documents.empty())
        return ReadResult::End;
    return ReadResult::Batch;
}

} // namespace oe
