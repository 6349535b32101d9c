#pragma once

#include <QString>

#include <cstdint>
#include <memory>
#include <vector>

namespace oe {

// Inflates a gzip file from a file descriptor it does not own, one member after another,
// checking what zlib's gzread lets pass: each member must reach its end-of-stream marker with a
// matching CRC and length, and nothing but another member may follow. A truncated download or
// a file with junk appended is an error, never a short but "complete" read.
class GzipReader
{
public:
    enum class Status
    {
        Data,  // `*produced` bytes were inflated
        End,   // the last member ended cleanly: no more data
        Failed // `problem` says why
    };

    explicit GzipReader(int fd);
    ~GzipReader();
    GzipReader(const GzipReader &) = delete;
    GzipReader &operator=(const GzipReader &) = delete;

    Status read(std::uint8_t *into, std::size_t size, std::size_t *produced, QString *problem);
    // Compressed bytes consumed so far: where a problem lies in the file itself.
    std::uint64_t compressedOffset() const { return m_compressedRead - m_available; }

private:
    Status inflateInto(std::uint8_t *into, std::size_t size, std::size_t *produced,
                       QString *problem);
    bool refill(QString *problem);
    Status startNextMember(QString *problem);

    struct Stream;
    int m_fd;
    std::unique_ptr<Stream> m_stream;
    std::vector<std::uint8_t> m_input;
    std::uint64_t m_compressedRead = 0; // bytes read from the file
    std::size_t m_available = 0;        // of those, not yet consumed by inflate
    bool m_fileEnded = false;
    bool m_memberEnded = false;
    QString m_deferredProblem; // found after some data of the last call: reported next
};

} // namespace oe
