#include "ReportRenderer.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

std::unique_ptr<ReportRenderer> ReportRenderer::load(QString *error)
{
    // Before any QCoreApplication exists (the plugin makes it): the binary's own path.
    const QString self = QFile::symLinkTarget(QStringLiteral("/proc/self/exe"));
    const QString path = QDir::cleanPath(QFileInfo(self).absolutePath() + QLatin1Char('/') +
                                         QLatin1String(oe::reportplugin::kRelativePath));
    if (!QFileInfo::exists(path)) {
        *error = QStringLiteral("report: the report renderer %1 is not installed (it comes with "
                                "the outlier-explorer package)")
                     .arg(path);
        return nullptr;
    }
    auto renderer = std::unique_ptr<ReportRenderer>(new ReportRenderer);
    renderer->m_library.setFileName(path);
    if (!renderer->m_library.load()) {
        *error = QStringLiteral("report: cannot load %1: %2")
                     .arg(path, renderer->m_library.errorString());
        return nullptr;
    }
    const auto version = reinterpret_cast<oe::reportplugin::VersionFunction>(
        renderer->m_library.resolve("oe_report_version"));
    renderer->m_application = reinterpret_cast<oe::reportplugin::ApplicationFunction>(
        renderer->m_library.resolve("oe_report_application"));
    renderer->m_write = reinterpret_cast<oe::reportplugin::WriteFunction>(
        renderer->m_library.resolve("oe_report_write"));
    if (!version || !renderer->m_application || !renderer->m_write) {
        *error = QStringLiteral("report: %1 is not Outlier Explorer's report renderer").arg(path);
        return nullptr;
    }
    if (qstrcmp(version(), PROJECT_VERSION) != 0) {
        *error = QStringLiteral("report: %1 is version %2, this is %3: reinstall both")
                     .arg(path, QString::fromLatin1(version()), QStringLiteral(PROJECT_VERSION));
        return nullptr;
    }
    return renderer;
}
