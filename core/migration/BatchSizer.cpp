#include "migration/BatchSizer.h"

#include <algorithm>

namespace oe {

BatchSizer::BatchSizer(std::size_t most)
    : m_most(std::max<std::size_t>(most, 1)), m_size(std::min(kFirst, m_most))
{
}

void BatchSizer::took(double seconds)
{
    if (seconds < kGrowBelow)
        m_size = std::min(m_size * 2, m_most);
    else if (seconds > kShrinkAbove)
        m_size = std::max<std::size_t>(m_size / 2, 1);
}

} // namespace oe
