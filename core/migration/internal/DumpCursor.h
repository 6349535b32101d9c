#pragma once

#include "analysis/internal/DocumentValidator.h"
#include "source/DumpFileSource.h"

#include <QByteArray>

namespace oe {

// Internal to core: the whole documents of a dump one at a time, each validated as analyze
// validates it, for the offline split, verify and rollback. An empty file is an empty
// collection (mongodump writes one for it), not an error.
class DumpCursor
{
public:
    explicit DumpCursor(const QString &path);
    bool open(SourceError *error);
    // The next document, or false at the end (`error` set if the file or a document is faulty).
    bool next(QByteArray *doc, SourceError *error);
    // Where the last document handed out lies in the file.
    std::uint64_t index() const { return m_index; }
    std::uint64_t offset() const { return m_offset; }

private:
    QString m_path;
    DumpFileSource m_source;
    DocumentValidator m_validator;
    DocumentBatch m_batch;
    std::size_t m_at = 0;
    bool m_done = false;
    std::uint64_t m_index = 0;
    std::uint64_t m_offset = 0;
};

} // namespace oe
