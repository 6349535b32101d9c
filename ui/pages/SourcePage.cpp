#include "pages/SourcePage.h"

#include "workspace/SourceState.h"

namespace oe {

void SourcePage::setState(SourceState *state)
{
    if (m_state == state)
        return;
    if (m_state)
        disconnect(m_state, nullptr, this, nullptr);
    m_state = state;
    m_shown = -1;
    if (state)
        bind(state);
}

void SourcePage::refresh()
{
    m_shown = m_state ? m_state->generation() : -1;
    if (m_state && m_state->hasResult())
        showResult(m_state->result());
    else
        clear();
}

bool SourcePage::isCurrent() const
{
    return m_state && m_shown == m_state->generation() && m_state->hasResult();
}

} // namespace oe
