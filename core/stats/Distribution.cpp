#include "stats/Distribution.h"

namespace oe {

void Distribution::merge(const Distribution &other)
{
    if (other.m_count == 0)
        return;
    if (m_count == 0 || other.m_min < m_min)
        m_min = other.m_min;
    if (other.m_max > m_max)
        m_max = other.m_max;
    m_count += other.m_count;
    m_sum += other.m_sum;
    m_sketch.merge(other.m_sketch);
    m_histogram.merge(other.m_histogram);
}

} // namespace oe
