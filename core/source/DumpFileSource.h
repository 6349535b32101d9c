#pragma once

#include "source/DocumentSource.h"

#include <cstdio>
#include <memory>

namespace oe {

// Reads a mongodump .bson file (concatenated BSON documents), or the same gzip-compressed
// (.bson.gz, recognised by its magic bytes). Frames documents by their length prefix and
// reports framing faults with the document index and byte offset; the content of each
// document is checked by libbson when it is walked.
class DumpFileSource : public DocumentSource
{
public:
    explicit DumpFileSource(QString path);
    ~DumpFileSource() override;

    QString displayName() const override;
    bool open(SourceError *error) override;
    ReadResult read(DocumentBatch &batch, std::size_t targetBytes, SourceError *error) override;
    bool rewind(SourceError *error) override;
    std::optional<std::uint64_t> totalBytes() const override;
    std::uint64_t bytesConsumed() const override { return m_consumed; }

    bool isCompressed() const { return m_compressed; }

    // Largest document the reader accepts (well above MongoDB's 16 MiB, so oversized
    // documents are analysed and flagged, while a corrupt length cannot exhaust memory).
    static constexpr std::uint32_t kMaxDocumentBytes = 256u * 1024u * 1024u;

private:
    struct Input;
    long readRaw(std::uint8_t *into, std::size_t size, SourceError *error);
    SourceError fault(const QString &message, std::uint64_t docIndex, std::uint64_t offset) const;
    void fill(ByteBuffer &bytes, std::size_t wanted);
    SourceError endOfData(const SourceError &framing) const;
    // Why a length prefix read at `fileOffset` cannot be right; empty when it can.
    QString lengthProblem(std::uint32_t length, std::uint64_t fileOffset) const;

    QString m_path;
    std::unique_ptr<Input> m_input;
    bool m_compressed = false;
    std::uint64_t m_fileSize = 0;
    std::uint64_t m_consumed = 0; // bytes of whole documents handed out
    std::uint64_t m_nextIndex = 0;
    ByteBuffer m_carry; // bytes read past the last whole document
    bool m_eof = false;
    SourceError m_readFault; // a read that failed: reported where the whole documents end
};

} // namespace oe
