#pragma once

#include "explore/AnalysisResult.h"
#include "export/ReportOptions.h"

#include <QObject>
#include <QPointer>

class QWidget;

namespace oe {

class LatestJob;

// File → Export report… and the wizard's last page: asks where (HTML or PDF), draws the charts
// on the GUI thread (they are widgets, and quick) and writes the file on a worker. Also the
// CSV reports (File → Export CSV reports…).
class ReportExporter : public QObject
{
    Q_OBJECT
public:
    explicit ReportExporter(QWidget *parent);
    // Paper for the user's locale: Letter in the US and Canada, else A4.
    static ReportOptions::PageSize localPageSize();
    // `file` empty: a save dialog asks, offering suggestedName(). The charts show the keep of
    // options.layout where it has one.
    void exportReport(const AnalysisResult &result, ReportOptions options,
                      const QString &file = {});
    // "<collection>-outlier-report.html": the collection's (or dump's) name, made safe for a file
    // name (a name from a server may hold '/', '..' or control characters).
    static QString suggestedName(const AnalysisResult &result);

    // The CSV reports into `directory`, on a worker.
    void exportCsv(const AnalysisResult &result, const QString &directory);

signals:
    void finished(bool ok, const QString &fileOrError);
    void csvFinished(bool ok, const QString &directoryOrError);

private:
    QPointer<QWidget> m_parent;
    LatestJob *m_job;
    LatestJob *m_csvJob;
};

} // namespace oe
