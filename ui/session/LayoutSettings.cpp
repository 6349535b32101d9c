#include "session/LayoutSettings.h"

#include <QMainWindow>
#include <QSettings>
#include <QSplitter>

namespace oe {

void LayoutSettings::restore(QMainWindow *window, QSplitter *sources, QSplitter *arrays)
{
    QSettings settings;
    window->restoreGeometry(settings.value(QStringLiteral("mainWindow/geometry")).toByteArray());
    window->restoreState(settings.value(QStringLiteral("mainWindow/state")).toByteArray());
    sources->restoreState(settings.value(QStringLiteral("mainWindow/splitter")).toByteArray());
    arrays->restoreState(settings.value(QStringLiteral("mainWindow/arraysSplitter")).toByteArray());
}

void LayoutSettings::save(const QMainWindow *window, const QSplitter *sources,
                          const QSplitter *arrays)
{
    QSettings settings;
    settings.setValue(QStringLiteral("mainWindow/geometry"), window->saveGeometry());
    settings.setValue(QStringLiteral("mainWindow/state"), window->saveState());
    settings.setValue(QStringLiteral("mainWindow/splitter"), sources->saveState());
    settings.setValue(QStringLiteral("mainWindow/arraysSplitter"), arrays->saveState());
}

} // namespace oe
