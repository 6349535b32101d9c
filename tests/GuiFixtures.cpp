#include "GuiFixtures.h"

#include <cmath>

#include "demo/DemoDataGenerator.h"
#include "explorer/MainWindow.h"
#include "pages/AnalysisOptionsBar.h"
#include "workspace/SourceState.h"
#include "workspace/Workspace.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMap>
#include <QMenuBar>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTabBar>
#include <QToolBar>

namespace guifixtures {

QString demoDump(const QString &dir, const QString &dataset, std::uint64_t documents)
{
    const QString path = QDir(dir).filePath(dataset + QStringLiteral(".bson"));
    QString error;
    if (!oe::DemoDataGenerator::write(dataset, path, documents, 42, &error))
        qFatal("demo data: %s", qPrintable(error));
    return path;
}

oe::AnalysisResult analyse(const QString &dumpPath, oe::AnalysisOptions::Mode mode,
                           std::uint64_t count)
{
    oe::AnalysisRequest request;
    request.source.kind = oe::SourceRef::Kind::Dump;
    request.source.dumpPath = dumpPath;
    request.selection.mode = mode;
    request.selection.count = count;
    return analyseInWorkspace(request);
}

oe::SourceState &stateWith(oe::Workspace &workspace, const oe::AnalysisResult &result)
{
    oe::SourceState &state = *workspace.stateOf(result.request.source);
    state.setResult(result);
    return state;
}

oe::AnalysisResult analyseInWorkspace(const oe::AnalysisRequest &request)
{
    oe::Workspace workspace;
    QSignalSpy finished(&workspace, &oe::Workspace::finished);
    if (!workspace.analyse(request) || !finished.wait(300000))
        return oe::AnalysisResult();
    return finished.first().first().value<oe::AnalysisResult>();
}

std::uint64_t documentsLargerThan(const QList<fixtures::ReferenceDocument> &docs,
                                  std::uint64_t bytes)
{
    std::uint64_t n = 0;
    for (const auto &d : docs)
        n += d.size > bytes ? 1 : 0;
    return n;
}

std::uint64_t arraysLongerThan(const QList<fixtures::ReferenceDocument> &docs, const QString &path,
                               std::uint64_t length)
{
    std::uint64_t n = 0;
    for (const auto &d : docs)
        n += d.longestArrayPath == path && d.longestArrayLength > length ? 1 : 0;
    return n;
}

std::uint64_t elementsBeyond(const QList<fixtures::ReferenceDocument> &docs, const QString &path,
                             std::uint64_t keep)
{
    std::uint64_t n = 0;
    for (const auto &d : docs)
        if (d.longestArrayPath == path && d.longestArrayLength > keep)
            n += d.longestArrayLength - keep;
    return n;
}

void showConnecting(oe::MainWindow &window, const QString &uri)
{
    window.setInteractive(false);
    window.show();
    oe::ConnectionSettings settings;
    settings.uri = uri;
    window.addConnection(QStringLiteral("ferretdb"), settings);
}

void openForFullScan(oe::MainWindow &window, const QString &dump)
{
    window.setInteractive(false);
    window.show();
    window.openDump(dump);
    window.optionsBar()->modeBox()->setCurrentIndex(
        window.optionsBar()->modeBox()->findData(int(oe::AnalysisOptions::Mode::Full)));
}

QStringList mnemonicClashes(QWidget *window, const QStringList &more)
{
    static const QRegularExpression mnemonic(QStringLiteral("(?<!&)&([^&\\s])"));
    QMap<QString, QStringList> owners;
    const auto add = [&](const QString &text) {
        const QRegularExpressionMatch m = mnemonic.match(text);
        if (m.hasMatch())
            owners[m.captured(1).toLower()] << text;
    };
    for (const QString &text : more)
        add(text);
    for (QAbstractButton *b : window->findChildren<QAbstractButton *>())
        if (b->isVisible() && b->window() == window)
            add(b->text());
    for (QLabel *l : window->findChildren<QLabel *>())
        if (l->isVisible() && l->buddy() && l->window() == window)
            add(l->text());
    QStringList clashes;
    for (auto it = owners.cbegin(); it != owners.cend(); ++it)
        if (it.value().size() > 1)
            clashes << QStringLiteral("Alt+%1: %2")
                           .arg(it.key(), it.value().join(QStringLiteral(", ")));
    return clashes;
}

namespace {

bool isControl(const QWidget *w)
{
    if (const auto *label = qobject_cast<const QLabel *>(w))
        return !label->text().isEmpty() || !label->pixmap().isNull();
    return qobject_cast<const QAbstractButton *>(w) || qobject_cast<const QAbstractSpinBox *>(w) ||
           qobject_cast<const QComboBox *>(w) || qobject_cast<const QLineEdit *>(w);
}

// Laid out by something else than a layout (tab bars, tool bars, scroll areas' contents,
// item views, the charts' own painting, a spin box's or combo's own line edit).
bool isManagedElsewhere(const QWidget *w)
{
    for (const QWidget *p = w->parentWidget(); p; p = p->parentWidget())
        if (qobject_cast<const QTabBar *>(p) || qobject_cast<const QToolBar *>(p) ||
            qobject_cast<const QAbstractItemView *>(p) ||
            qobject_cast<const QAbstractSpinBox *>(p) || qobject_cast<const QComboBox *>(p) ||
            qobject_cast<const QScrollArea *>(p) || qobject_cast<const QMenuBar *>(p) ||
            qobject_cast<const QStatusBar *>(p))
            return true;
    return qobject_cast<const QTabBar *>(w) != nullptr;
}

QString nameOf(const QWidget *w)
{
    QString text;
    if (const auto *b = qobject_cast<const QAbstractButton *>(w))
        text = b->text();
    else if (const auto *l = qobject_cast<const QLabel *>(w))
        text = l->text().left(40);
    return QStringLiteral("%1 '%2'").arg(QString::fromLatin1(w->metaObject()->className()),
                                         text.remove(QLatin1Char('&')));
}

} // namespace

QStringList overlappingControls(QWidget *window)
{
    QStringList problems;
    QList<QWidget *> controls;
    for (QWidget *w : window->findChildren<QWidget *>())
        if (w->isVisible() && isControl(w) && !isManagedElsewhere(w))
            controls << w;
    for (QWidget *w : controls) {
        const QRect inParent = w->geometry();
        if (!w->parentWidget()->rect().adjusted(-1, -1, 1, 1).contains(inParent))
            problems << QStringLiteral("%1 runs past its parent").arg(nameOf(w));
        const auto *label = qobject_cast<const QLabel *>(w);
        const bool wraps = label && label->wordWrap();
        if (!wraps && w->width() + 1 < w->minimumSizeHint().width())
            problems << QStringLiteral("%1 is %2 px wide, needs %3")
                            .arg(nameOf(w))
                            .arg(w->width())
                            .arg(w->minimumSizeHint().width());
        for (QWidget *other : controls)
            if (other != w && other->parentWidget() == w->parentWidget() && w < other &&
                inParent.adjusted(1, 1, -1, -1)
                    .intersects(other->geometry().adjusted(1, 1, -1, -1)))
                problems << QStringLiteral("%1 overlaps %2").arg(nameOf(w), nameOf(other));
    }
    return problems;
}

QString asCsvNumber(const QString &shown)
{
    bool ok = false;
    const qulonglong n = QLocale().toULongLong(shown.trimmed(), &ok);
    return ok ? QString::number(n) : shown;
}

bool showsBytes(const QString &shown, std::uint64_t bytes)
{
    const qsizetype space = shown.lastIndexOf(QLatin1Char(' '));
    const qsizetype power = QStringList{QStringLiteral("B"), QStringLiteral("KiB"),
                                        QStringLiteral("MiB"), QStringLiteral("GiB")}
                                .indexOf(shown.mid(space + 1));
    bool ok = false;
    const double number = QLocale().toDouble(shown.left(space), &ok);
    if (space < 0 || power < 0 || !ok)
        return false;
    const double unit = std::pow(1024.0, double(power));
    const double slack = power == 0 ? 0.0 : 0.05 * unit + 0.5;
    return std::abs(number * unit - double(bytes)) <= slack;
}

} // namespace guifixtures
