#pragma once

#include "pages/SourcePage.h"

class QComboBox;
class QLabel;
class QTableWidget;

namespace oe {

class LatestJob;

// The collection at a glance: documents, size quantiles, the share near the 16 MiB limit,
// outlier counts and the worst array paths, with what to do next.
class OverviewPage : public SourcePage
{
    Q_OBJECT
public:
    explicit OverviewPage(QWidget *parent = nullptr);
    void clear() override;
    void showResult(const AnalysisResult &result) override;
    QString valueText(const QString &key) const; // for tests: the figure shown under a key
    // For tests: the precision line under a key's figure (a sample's confidence interval).
    QString precisionText(const QString &key) const;
    QComboBox *precisionTarget() const { return m_precisionTarget; } // for tests
    // The growth forecast from the analysis history (read off the UI thread after a result).
    QLabel *growth() const { return m_growth; }

signals:
    void growthShown(const QString &text);

protected:
    void bind(SourceState *state) override;

signals:
    void pathActivated(const QString &path);

private:
    void setValue(const QString &key, const QString &text, const QString &tip = {});
    void setPrecision(const QString &key, const QString &text, const QString &tip = {});
    void showPrecision(const AnalysisResult &result);
    void showSampleSuggestion(double points);
    void showGrowth(const AnalysisResult &result);

    QLabel *m_headline;
    QLabel *m_notes; // how the run read and measured, under the headline
    QWidget *m_cards;
    QTableWidget *m_paths;
    QLabel *m_next;
    QLabel *m_growth;
    LatestJob *m_growthJob;
    QComboBox *m_precisionTarget; // the p99 precision a sample size is suggested for
    QString m_confidenceText;     // "95 %" of the sample shown; empty when none is
};

} // namespace oe
