#pragma once

#include "analysis/CollectionProfile.h"
#include "analysis/DetectionOptions.h"
#include "analysis/OutlierReport.h"
#include "analysis/SplitRecommendation.h"
#include "explore/AnalysisResult.h"
#include "output/CsvWriter.h"
#include "shape/ShapeReport.h"

#include <QStringList>

#include <vector>

namespace oe {

// The CSV reports shared by the CLI and the GUI's export. File names and the columns listed in
// the CLI contract are stable; columns may be added at the end.
class ReportWriter
{
public:
    struct Report
    {
        const CollectionProfile &profile;
        const OutlierReport &outliers;
        const std::vector<SplitRecommendation> &recommendations;
        const DetectionOptions &detection;
        int topK = 20;
        const ShardBreakdown *sharding = nullptr; // a sharded collection's, else none
        double p99PrecisionPoints = 0.1;          // the precision a sample size is suggested for
        const ShapeReport *shape = nullptr;       // the schema outliers of shape, if detected

        // The reports of an analysis, as the CLI writes them and the desktop app exports them.
        static Report of(const AnalysisResult &result, int topK = 20)
        {
            return {result.profile,
                    result.outliers,
                    result.recommendations,
                    result.request.detection,
                    topK,
                    result.sharding ? &*result.sharding : nullptr,
                    result.request.p99PrecisionPoints,
                    &result.shape};
        }
    };

    // Writes every report into `directory` (created if missing). All are written to temporary
    // names and renamed into place only when every one was written, so a failure (a full disk)
    // leaves no report half-written and none out of step with the others.
    static bool write(const QString &directory, const Report &report, QString *error,
                      QStringList *written = nullptr);

    // Each report on its own, streamed to `out` (a file, or a QBuffer for in-memory use);
    // false if `out` refused the data.
    static bool summary(const Report &report, QIODevice *out);
    // Whether the rows that describe a sample (its confidence intervals, the sample sizes it
    // suggests) are listed for an analysis that read every document: summary.csv keeps its
    // columns and leaves them empty; the HTML and PDF report leave them out.
    enum class SampleRows
    {
        Always,
        WhenSampled
    };
    // summary.csv's rows (metric, value), for the HTML and PDF report.
    static QList<QPair<QString, QString>> summaryRows(const Report &report,
                                                      SampleRows sampleRows = SampleRows::Always);
    static bool sizeHistogram(const Report &report, QIODevice *out);
    static bool fields(const Report &report, QIODevice *out);
    static bool arrayHistograms(const Report &report, QIODevice *out);
    static bool outlierRows(const Report &report, QIODevice *out);
    static bool topDocuments(const Report &report, QIODevice *out);
    static bool topArrays(const Report &report, QIODevice *out);
    static bool recommendations(const Report &report, QIODevice *out);
    // shards.csv, written only for a sharded collection: per shard, its chunks (jumbo ones too)
    // and the outliers it holds.
    static bool shards(const Report &report, QIODevice *out);
    // shape_outliers.csv: one row per schema outlier of shape (ShapeCsv); no rows when the
    // shape was not measured (summary.csv's shape_note says why).
    static bool shapeOutliers(const Report &report, QIODevice *out);
    static bool schemaVersions(const Report &report, QIODevice *out);

    static QString typesText(const FieldProfile &field);
};

} // namespace oe
