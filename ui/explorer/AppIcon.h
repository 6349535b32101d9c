#pragma once

#include <QIcon>
#include <QImage>
#include <QString>

namespace oe {

// The application's icon, drawn from the one SVG that the package also installs (as the
// scalable icon and, rendered at build time, as the hicolor PNGs).
class AppIcon
{
public:
    // The reverse-DNS application id: the desktop entry's, the AppStream component's and the
    // icon's name.
    static QString id();
    // The SVG rendered at the sizes a window manager asks for; null if the resource is missing.
    static QIcon icon();
    // The SVG rendered at size × size pixels; null if the resource is missing. The package's
    // hicolor PNGs are these images (packaging/tools/render_icon.cpp).
    static QImage image(int size);
};

} // namespace oe
