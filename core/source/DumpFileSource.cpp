#include "source/DumpFileSource.h"

#include "source/internal/GzipReader.h"

#include <QFileInfo>

#include <bson/bson.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace oe {

struct DumpFileSource::Input
{
    int fd = -1;
    std::unique_ptr<GzipReader> gz;
    ~Input()
    {
        gz.reset();
        if (fd >= 0)
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
    m_readFault = {};

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
        input->gz = std::make_unique<GzipReader>(fd);
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
        std::size_t produced = 0;
        QString problem;
        if (m_input->gz->read(into, size, &produced, &problem) == GzipReader::Status::Failed) {
            // Where the documents stop: the next one's index, at its uncompressed offset.
            *error = SourceError::invalidData(m_path, problem, std::int64_t(m_nextIndex),
                                              std::int64_t(m_consumed));
            return -1;
        }
        return long(produced);
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

// Reads until `wanted` bytes are buffered or the data ends. A read that fails ends the data too;
// its error is kept and reported where the documents stop (see endOfData), so the whole
// documents before it still count.
void DumpFileSource::fill(ByteBuffer &bytes, std::size_t wanted)
{
    while (bytes.size() < wanted && !m_eof) {
        const std::size_t old = bytes.size();
        const std::size_t chunk = std::max<std::size_t>(wanted - old, 64 * 1024);
        bytes.resize(old + chunk);
        SourceError error;
        const long n = readRaw(bytes.data() + old, chunk, &error);
        bytes.resize(old + std::size_t(std::max<long>(n, 0)));
        if (n < 0)
            m_readFault = error;
        if (n <= 0)
            m_eof = true;
    }
}

// The fault to report where the data runs out: a failed read (a truncated gzip stream, an I/O
// error) explains it better than the framing problem it causes.
SourceError DumpFileSource::endOfData(const SourceError &framing) const
{
    if (!m_readFault.isError())
        return framing;
    SourceError e = m_readFault;
    e.docIndex = std::int64_t(m_nextIndex);
    e.byteOffset = std::int64_t(m_consumed);
    return e;
}

QString DumpFileSource::lengthProblem(std::uint32_t length, std::uint64_t fileOffset) const
{
    if (std::int32_t(length) < 5)
        return QStringLiteral("bad length prefix %1 (a BSON document is at least 5 bytes)")
            .arg(std::int32_t(length));
    if (!m_compressed && fileOffset + length > m_fileSize)
        return QStringLiteral("document length %1 runs past end of file (%2 bytes left)")
            .arg(length)
            .arg(m_fileSize - fileOffset);
    if (length > kMaxDocumentBytes)
        return QStringLiteral("implausible document length %1 (over %2 MiB)")
            .arg(length)
            .arg(kMaxDocumentBytes >> 20);
    return {};
}

DocumentSource::ReadResult DumpFileSource::read(DocumentBatch &batch, std::size_t targetBytes,
                                                SourceError *error)
{
    batch.documents.clear();
    batch.bytes.swap(m_carry);
    m_carry.clear();
    if (!m_input)
        return ReadResult::End;

    fill(batch.bytes, targetBytes);
    std::size_t pos = 0;
    bool faulted = false;
    auto stop = [&](const SourceError &e) {
        *error = e;
        faulted = true;
    };
    while (!faulted) {
        const std::size_t available = batch.bytes.size() - pos;
        const std::uint64_t fileOffset = m_consumed;
        if (available == 0 || (!batch.documents.empty() && pos >= targetBytes))
            break;
        if (available < 4) {
            fill(batch.bytes, batch.bytes.size() + (4 - available));
            if (batch.bytes.size() - pos < 4)
                stop(endOfData(
                    fault(QStringLiteral("truncated length prefix: %1 stray byte(s) at end of file")
                              .arg(batch.bytes.size() - pos),
                          m_nextIndex, fileOffset)));
            continue;
        }
        std::uint32_t le = 0;
        std::memcpy(&le, batch.bytes.data() + pos, 4);
        const std::uint32_t length = BSON_UINT32_FROM_LE(le);
        if (const QString problem = lengthProblem(length, fileOffset); !problem.isEmpty()) {
            stop(fault(problem, m_nextIndex, fileOffset));
            break;
        }
        if (available < length) {
            if (!batch.documents.empty() && batch.bytes.size() >= targetBytes)
                break; // the next batch starts with this document
            fill(batch.bytes, pos + length);
            if (batch.bytes.size() - pos < length)
                stop(endOfData(
                    fault(QStringLiteral("document length %1 runs past end of file (%2 bytes left)")
                              .arg(length)
                              .arg(batch.bytes.size() - pos),
                          m_nextIndex, fileOffset)));
            continue;
        }
        if (batch.bytes[pos + length - 1] != 0) {
            stop(fault(QStringLiteral("document of length %1 does not end with a NUL byte "
                                      "(corrupt length prefix or data)")
                           .arg(length),
                       m_nextIndex, fileOffset));
            break;
        }
        batch.documents.push_back({std::uint32_t(pos), length, m_nextIndex, fileOffset});
        ++m_nextIndex;
        pos += length;
        m_consumed += length;
    }
    if (!faulted && pos < batch.bytes.size())
        m_carry.assign(batch.bytes.data() + pos, batch.bytes.size() - pos);
    if (!faulted && batch.documents.empty() && m_readFault.isError())
        stop(endOfData({}));
    if (faulted) {
        m_input.reset(); // nothing more is read from a faulty file
        return ReadResult::Error;
    }
    if (batch.documents.empty())
        return ReadResult::End;
    return ReadResult::Batch;
}

} // namespace oe
