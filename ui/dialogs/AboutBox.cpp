#include "dialogs/AboutBox.h"

#include "mongo/MongoRuntime.h"

#include <QCoreApplication>
#include <QMessageBox>
#include <qcustomplot.h>

namespace oe {

void AboutBox::show(QWidget *parent)
{
    QMessageBox::about(
        parent, QCoreApplication::translate("AboutBox", "About Outlier Explorer"),
        QCoreApplication::translate(
            "AboutBox", "<p><b>Outlier Explorer</b> %1</p><p>Finds MongoDB documents whose "
                        "arrays grow without bound and applies the outlier pattern safely.</p>"
                        "<p>Qt %2 · QCustomPlot %3 · MongoDB C driver %4</p>"
                        "<p>Free software under the GNU General Public License, version 3 or "
                        "later. <a href=\"%5\">%5</a></p>")
            .arg(QCoreApplication::applicationVersion(), QString::fromLatin1(qVersion()),
                 QStringLiteral(QCUSTOMPLOT_VERSION_STR), MongoRuntime::driverVersion(),
                 QStringLiteral(OE_HOMEPAGE_URL)));
}

} // namespace oe
