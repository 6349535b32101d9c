#pragma once

#include "analysis/SourceRef.h"
#include "split/LogicalDocument.h"

#include <QDialog>

class QLabel;
class QPlainTextEdit;
class QTableWidget;

namespace oe {

class LatestJob;

// A split document as the application reads it: the primary and its overflow pages stitched in
// page order, with where each run of the array's elements lives (the primary, or page N of the
// overflow collection), and the whole document as extended JSON.
class LogicalDocumentDialog : public QDialog
{
    Q_OBJECT
public:
    explicit LogicalDocumentDialog(QWidget *parent = nullptr);
    // Reads _id `idJson` of source's collection (config: the split's layout) in the background.
    void load(const SourceRef &source, const SplitConfig &config, const QString &idJson);

    const LogicalDocument &document() const { return m_document; }
    QString summaryText() const;
    QTableWidget *places() const { return m_places; }
    QString jsonText() const;

signals:
    void loaded(bool ok);

private:
    void showDocument(const LogicalDocument &document, const SplitConfig &config);

    QLabel *m_summary;
    QTableWidget *m_places;
    QPlainTextEdit *m_json;
    LatestJob *m_job;
    LogicalDocument m_document;
};

} // namespace oe
