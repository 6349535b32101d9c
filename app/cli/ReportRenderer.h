#pragma once

#include "export/ReportPlugin.h"

#include <QLibrary>
#include <QString>

#include <memory>

class QCoreApplication;

// The CLI's handle on the report plugin (export/ReportPlugin.h): `report` loads it before
// anything else, since the plugin makes the widget application its charts need. Every other
// command runs without it.
class ReportRenderer
{
public:
    // The plugin beside this binary (../lib/outlier-explorer/plugins/), checked to be this
    // version's; null with a one-line `error` naming the file when it is missing or not the one.
    static std::unique_ptr<ReportRenderer> load(QString *error);

    QCoreApplication *application(int &argc, char **argv) const
    {
        return m_application(&argc, argv);
    }
    bool write(const oe::AnalysisResult &result, const oe::ReportOptions &options,
               const QString &out, QString *error) const
    {
        return m_write(result, options, out, error);
    }

private:
    QLibrary m_library;
    oe::reportplugin::ApplicationFunction m_application = nullptr;
    oe::reportplugin::WriteFunction m_write = nullptr;
};
