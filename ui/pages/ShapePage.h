#pragma once

#include "analysis/OutlierReport.h"
#include "bson/SizeAnatomy.h"
#include "guard/GuardRule.h"
#include "pages/SourcePage.h"
#include "remedy/RewriteConfig.h"
#include "shape/ShapeQuery.h"

#include <map>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;

namespace oe {

class AnatomyChart;
class LatestJob;
class ShapeFieldTree;

// The Shape tab: the schema outliers of shape (shape_outliers.csv's rows, the same text)
// above the field tree with presence and type bars, and the size anatomy of a chosen outlier
// document. Choosing a flag shows the query that finds its documents and reveals its path in
// the tree; activating it (double-click, Enter, Show in Documents) runs that query on the
// Documents tab, or, for a dump, opens its first example document. The largest outlier
// document is taken apart when the tab is first shown.
class SchemaVersionsBox;

class ShapePage : public SourcePage
{
    Q_OBJECT
public:
    enum Column
    {
        Kind,
        Path,
        Type,
        Share,
        Count,
        Total,
        Detail,
        Examples,
        Version, // the schema version a flag is within; "all" for the whole collection's
        ColumnCount
    };
    explicit ShapePage(QWidget *parent = nullptr);
    void clear() override;
    void showResult(const AnalysisResult &result) override;

    QLabel *summaryLabel() const { return m_summary; }
    SchemaVersionsBox *versionsBox() const { return m_versions; }
    QTableWidget *flagsTable() const { return m_flags; }
    ShapeFieldTree *fieldTree() const { return m_tree; }
    QLineEdit *queryEdit() const { return m_query; }
    QPushButton *documentsButton() const { return m_showDocuments; }
    QPushButton *typeGuardButton() const { return m_guardType; }
    QPushButton *rewriteButton() const { return m_rewrite; }
    QComboBox *documentBox() const { return m_document; }
    AnatomyChart *anatomyChart() const { return m_anatomy; }
    QLabel *anatomyLabel() const { return m_anatomyNote; }
    // The figures behind the chart on display (empty before one is loaded).
    const SizeAnatomy &anatomy() const { return m_shownAnatomy; }
    // As a double-click on the flag in this row.
    void activateFlag(int row);

signals:
    // A live collection's documents behind a flag: the filter for the Documents tab.
    void documentsRequested(const QString &filter);
    void documentRequested(const oe::OutlierRow &row);
    void anatomyShown();
    // A live collection's mixed-type flag: Guard type… with the rule it suggests.
    void typeGuardRequested(const oe::SourceRef &source, const oe::GuardRule &rule);
    // A live collection's keys-as-data or mixed-type flag: Rewrite… with the rewrite it suggests.
    void rewriteRequested(const oe::SourceRef &source, const oe::RewriteConfig &config);

protected:
    void showEvent(QShowEvent *event) override;
    void bind(SourceState *state) override;

private:
    struct Choice
    {
        QString label;
        OutlierRow row;
    };
    void selectFlag(int row);
    void fillChoices(const std::vector<Choice> &first);
    void loadAnatomy(int choice);
    void loadPending();
    std::vector<Choice> outlierChoices() const;

    QLabel *m_summary;
    SchemaVersionsBox *m_versions;
    QTableWidget *m_flags;
    QLineEdit *m_query;
    QLabel *m_reach;
    QPushButton *m_showDocuments;
    QPushButton *m_guardType;
    QPushButton *m_rewrite;
    ShapeFieldTree *m_tree;
    QComboBox *m_document;
    AnatomyChart *m_anatomy;
    QLabel *m_anatomyNote;
    LatestJob *m_job;
    SourceRef m_source;
    std::vector<ShapeFlag> m_shown;
    std::map<int, GuardRule> m_typeRules;    // by row: the type rule a mixed-type flag suggests
    std::map<int, RewriteConfig> m_rewrites; // by row: the rewrite a flag suggests
    std::vector<OutlierRow> m_outliers;
    std::vector<Choice> m_choices;
    SizeAnatomy m_shownAnatomy;
    bool m_anatomyPending = false; // the first choice is taken apart when the tab is shown
};

} // namespace oe
