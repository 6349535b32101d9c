#pragma once

#include "split/SplitConfig.h"
#include "split/SplitPlan.h"

#include <QStringList>
#include <QWidget>

class QComboBox;
class QPlainTextEdit;

namespace oe {

class LatestJob;

// One document before and after a split, side by side: the document as it is, the primary
// after the split and its overflow pages (a page chooser), as indented extended JSON. The split
// and the indenting run off the GUI thread; a newer document supersedes an older one.
class SplitExampleView : public QWidget
{
    Q_OBJECT
public:
    explicit SplitExampleView(QWidget *parent = nullptr);
    void show(const QByteArray &document, const QString &idJson, const SplitConfig &config);
    void clear();

    QPlainTextEdit *beforeView() const { return m_before; }
    QPlainTextEdit *primaryView() const { return m_primary; }
    QPlainTextEdit *pageView() const { return m_page; }
    QComboBox *pagesBox() const { return m_pages; }

signals:
    // The split of the document shown (its problem, if it cannot be split): for a summary line.
    void shown(const DocumentPreview &preview, const QString &idJson, const SplitConfig &config);

private:
    void clearViews();
    void display(const DocumentPreview &preview);
    void showPage(int index);

    QPlainTextEdit *m_before;
    QPlainTextEdit *m_primary;
    QComboBox *m_pages;
    QPlainTextEdit *m_page;
    QStringList m_pageJson;
    LatestJob *m_job;
    bool m_setting = false;
};

} // namespace oe
