#pragma once

#include "pages/SourcePage.h"
#include "split/SplitConfig.h"
#include "split/SplitPlan.h"
#include "split/SplitPlanner.h"

#include <atomic>
#include <memory>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QSpinBox;
class QTimer;

namespace oe {

class ChartPanel;
class DocumentLoader;
class SplitExampleView;

// The split before it happens: one chosen outlier before and after (the primary and its
// overflow pages as extended JSON, with sizes), and the predicted size distribution of the
// whole collection after the split (SplitPlanner over the source, off the GUI thread).
// Path, keep and page size are the state's.
class SplitPreviewPage : public SourcePage
{
    Q_OBJECT
public:
    explicit SplitPreviewPage(QWidget *parent = nullptr);
    ~SplitPreviewPage() override;
    void clear() override;
    void showResult(const AnalysisResult &result) override;
    QString path() const;
    std::uint64_t keep() const;

    QComboBox *pathBox() const { return m_path; }
    QComboBox *documentBox() const { return m_document; }
    QSpinBox *keepBox() const { return m_keep; }
    SplitExampleView *example() const { return m_example; }
    QLabel *documentSummary() const { return m_docSummary; }
    QLabel *planSummary() const { return m_planSummary; }
    ChartPanel *panel() const { return m_panel; }

signals:
    void migrateRequested();
    void previewReady(); // the chosen document's before/after is shown
    void planReady();    // the predicted distribution is shown

protected:
    void bind(SourceState *state) override;

private:
    void wire();
    void showPath(const QString &path);
    void showKeep(std::uint64_t keep);
    void showPageSize(std::uint64_t pageSize);
    void clearDocumentViews();
    void fillDocuments();
    void requestDocument();
    SplitConfig config() const; // the split the page's choices describe
    void showPreview(const QByteArray &document, const QString &idJson);
    void showDocumentPreview(const DocumentPreview &preview, const QString &idJson,
                             const SplitConfig &config);
    void showPlan(); // the state's plan, if it is for the current choices

    QComboBox *m_path;
    QSpinBox *m_keep;
    QSpinBox *m_pageSize;
    QComboBox *m_document;
    QLabel *m_docSummary;
    SplitExampleView *m_example; // the chosen document before and after
    QLabel *m_planSummary;
    ChartPanel *m_panel;
    DocumentLoader *m_loader;
    QByteArray m_documentBytes;
    QString m_documentId;
    bool m_setting = false;
};

} // namespace oe
