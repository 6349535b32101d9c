#pragma once

#include "explore/AnalysisResult.h"
#include "workspace/SourceState.h"

#include <QPointer>
#include <QWidget>

namespace oe {

// A page of the collection view: it shows one source's state and writes the user's choices
// back to it. refresh() fills the page from the state's result; until then (pages are filled
// one per event-loop turn) isCurrent() is false and the page ignores value changes, which it
// reads anyway when it is filled.
class SourcePage : public QWidget
{
    Q_OBJECT
public:
    using QWidget::QWidget;

    // Binds the page to another state (the previous one's signals are dropped); shows nothing
    // of it until refresh().
    void setState(SourceState *state);
    void refresh();
    bool isCurrent() const;

    virtual void clear() = 0;
    virtual void showResult(const AnalysisResult &result) = 0;

protected:
    SourceState *state() const { return m_state; }
    // Connects to the state's value signals (with this page as context).
    virtual void bind(SourceState *state) { Q_UNUSED(state) }

private:
    QPointer<SourceState> m_state;
    int m_shown = -1; // the state generation on display
};

} // namespace oe
