#include "SourceState.h"

namespace oe {

SourceState::SourceState(QObject *parent) : QObject(parent) {}

void SourceState::setResult(const AnalysisResult &result)
{
    m_result = result;
    m_hasResult = true;
    ++m_generation;
    m_path = QString::fromStdString(result.preferredSplitPath());
    m_keep = result.suggestedKeep(result.preferredSplitPath());
    m_sizeThreshold = result.outliers.size.value;
    emit resultChanged();
}

void SourceState::clear()
{
    m_result = AnalysisResult();
    m_hasResult = false;
    ++m_generation;
    m_path.clear();
    m_keep = 0;
    m_sizeThreshold = 0;
    emit resultChanged();
}

void SourceState::choosePath(const QString &path)
{
    if (path == m_path)
        return;
    m_path = path;
    const std::uint64_t keep = m_result.suggestedKeep(path.toStdString());
    const bool keepMoved = keep != m_keep;
    m_keep = keep;
    emit pathChanged(path);
    if (keepMoved)
        emit keepChanged(keep);
}

void SourceState::setKeep(std::uint64_t keep)
{
    if (keep == m_keep)
        return;
    m_keep = keep;
    emit keepChanged(keep);
}

void SourceState::setPageSize(std::uint64_t pageSize)
{
    if (pageSize == m_pageSize || pageSize == 0)
        return;
    m_pageSize = pageSize;
    emit pageSizeChanged(pageSize);
}

void SourceState::setSizeThreshold(std::uint64_t bytes)
{
    if (bytes == m_sizeThreshold)
        return;
    m_sizeThreshold = bytes;
    emit sizeThresholdChanged(bytes);
}

} // namespace oe
