#include "migration/internal/DumpCursor.h"

#include <QFileInfo>

namespace oe {

DumpCursor::DumpCursor(const QString &path) : m_path(path), m_source(path) {}

bool DumpCursor::open(SourceError *error)
{
    m_batch = {};
    m_at = 0;
    const QFileInfo info(m_path);
    m_done = info.isFile() && info.size() == 0;
    return m_done || m_source.open(error);
}

bool DumpCursor::next(QByteArray *doc, SourceError *error)
{
    while (m_at >= m_batch.documents.size()) {
        if (m_done)
            return false;
        const auto status = m_source.read(m_batch, 1u << 20, error);
        m_at = 0;
        if (status == DocumentSource::ReadResult::Error) {
            m_done = true;
            if (m_batch.documents.empty())
                return false;
        } else if (status == DocumentSource::ReadResult::End) {
            m_done = true;
            return false;
        }
    }
    const auto &e = m_batch.documents[m_at++];
    m_index = e.index;
    m_offset = e.sourceOffset;
    if (!m_validator.check(m_batch.data(e), e.length, m_path, std::int64_t(e.index),
                           std::int64_t(e.sourceOffset), error)) {
        m_done = true;
        m_batch.documents.clear();
        return false;
    }
    *doc = QByteArray(reinterpret_cast<const char *>(m_batch.data(e)), qsizetype(e.length));
    return true;
}

} // namespace oe
