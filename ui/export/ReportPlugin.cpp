#include "export/ReportPlugin.h"

#include "export/ReportCharts.h"
#include "export/ReportDocument.h"

#include <QApplication>

// The plugin's three entry points (the module is built with hidden visibility: only these are
// exported).
extern "C" {

Q_DECL_EXPORT const char *oe_report_version()
{
    return OE_VERSION;
}

Q_DECL_EXPORT QCoreApplication *oe_report_application(int *argc, char **argv)
{
    return new QApplication(*argc, argv);
}

Q_DECL_EXPORT bool oe_report_write(const oe::AnalysisResult &result,
                                   const oe::ReportOptions &options, const QString &out,
                                   QString *error)
{
    const oe::ReportDocument report(
        result,
        oe::ReportCharts::render(result,
                                 options.layout ? std::optional<std::uint64_t>(options.layout->keep)
                                                : std::nullopt,
                                 options.layout ? options.layout->field : QString()),
        options);
    return report.write(out, error);
}

} // extern "C"
