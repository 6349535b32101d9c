// render_icon: the application icon rendered to the PNG sizes the hicolor icon theme expects,
// at build time, from the same SVG resource the window icon uses (AppIcon), so the PNGs can
// never drift from the SVG.
//   render_icon OUTDIR SIZE...  writes OUTDIR/<SIZE>x<SIZE>/apps/<app id>.png
#include "explorer/AppIcon.h"

#include <QDir>
#include <QGuiApplication>

#include <cstdio>

int main(int argc, char *argv[])
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    const QStringList args = QGuiApplication::arguments();
    if (args.size() < 3) {
        std::fputs("usage: render_icon OUTDIR SIZE...\n", stderr);
        return 2;
    }
    for (const QString &sizeText : args.mid(2)) {
        bool ok = false;
        const int size = sizeText.toInt(&ok);
        if (!ok || size < 8 || size > 1024) {
            std::fprintf(stderr, "render_icon: size '%s' is not from 8 to 1024\n",
                         qPrintable(sizeText));
            return 2;
        }
        const QImage image = oe::AppIcon::image(size);
        if (image.isNull()) {
            std::fputs("render_icon: the icon resource is missing or not a valid SVG\n", stderr);
            return 4;
        }
        const QString dir = QStringLiteral("%1/%2x%2/apps").arg(args.at(1)).arg(size);
        const QString path = dir + QLatin1Char('/') + oe::AppIcon::id() + QStringLiteral(".png");
        if (!QDir().mkpath(dir) || !image.save(path, "PNG")) {
            std::fprintf(stderr, "render_icon: cannot write %s\n", qPrintable(path));
            return 3;
        }
    }
    return 0;
}
