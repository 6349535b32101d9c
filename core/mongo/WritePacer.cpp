#include "mongo/WritePacer.h"

#include <algorithm>
#include <cmath>

namespace oe {

void WritePacer::record(std::size_t documents, double seconds)
{
    if (documents == 0)
        return;
    if (seconds > kSlowSeconds) {
        const double fitting = std::floor(double(documents) * kTargetSeconds / seconds);
        m_perCommand =
            std::clamp(std::min(std::size_t(fitting), m_perCommand), std::size_t(1), kMax);
    } else if (seconds <= kTargetSeconds / 2 && documents >= m_perCommand) {
        m_perCommand = std::min(kMax, m_perCommand * 2);
    }
}

} // namespace oe
