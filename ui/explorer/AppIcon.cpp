#include "explorer/AppIcon.h"

#include <QPainter>
#include <QPixmap>
#include <QSvgRenderer>

namespace oe {

QString AppIcon::id()
{
    return QStringLiteral(OE_APP_ID);
}

QImage AppIcon::image(int size)
{
    QSvgRenderer svg(QStringLiteral(":/icons/%1.svg").arg(id()));
    if (!svg.isValid())
        return {};
    QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    svg.render(&painter);
    painter.end();
    return image;
}

QIcon AppIcon::icon()
{
    QIcon icon;
    for (const int size : {16, 22, 24, 32, 48, 64, 128, 256}) {
        const QImage rendered = image(size);
        if (rendered.isNull())
            return {};
        icon.addPixmap(QPixmap::fromImage(rendered));
    }
    return icon;
}

} // namespace oe
