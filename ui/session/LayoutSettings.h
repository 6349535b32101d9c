#pragma once

class QMainWindow;
class QSplitter;

namespace oe {

// The main window's geometry, dock/toolbar state and splitter positions, kept in QSettings
// between sessions.
class LayoutSettings
{
public:
    static void restore(QMainWindow *window, QSplitter *sources, QSplitter *arrays);
    static void save(const QMainWindow *window, const QSplitter *sources, const QSplitter *arrays);
};

} // namespace oe
