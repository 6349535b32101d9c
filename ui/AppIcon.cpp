#include "AppIcon.h"

#include <QImage>
#include <QPainter>
#include <QPixmap>
#include <QSvgRenderer>

namespace oe {

QString AppIcon::id()
{
    return QStringLiteral(OE_APP_ID);
}

QIcon AppIcon::icon()
{
    QSvgRenderer svg(QStringLiteral(":/icons/%1.svg").arg(id()));
    if (!svg.isValid())
        return {};
    QIcon icon;
    for (const int size : {16, 22, 24, 32, 48, 64, 128, 256}) {
        QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        svg.render(&painter);
        painter.end();
        icon.addPixmap(QPixmap::fromImage(image));
    }
    return icon;
}

} // namespace oe
