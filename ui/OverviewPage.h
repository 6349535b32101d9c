#pragma once

#include "SourcePage.h"

class QLabel;
class QTableWidget;

namespace oe {

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

protected:
    void bind(SourceState *state) override;

signals:
    void pathActivated(const QString &path);

private:
    void setValue(const QString &key, const QString &text, const QString &tip = {});
    void setPrecision(const QString &key, const QString &text, const QString &tip = {});
    void showPrecision(const CollectionProfile &profile);

    QLabel *m_headline;
    QWidget *m_cards;
    QTableWidget *m_paths;
    QLabel *m_next;
};

} // namespace oe
