#include "widgets/SplitExampleView.h"

#include "bson/JsonIndenter.h"
#include "charts/Format.h"
#include "jobs/LatestJob.h"
#include "split/SplitPlanner.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QFontDatabase>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QVBoxLayout>

namespace oe {

namespace {

QPlainTextEdit *jsonView(QWidget *parent)
{
    auto *view = new QPlainTextEdit(parent);
    view->setReadOnly(true);
    view->setUndoRedoEnabled(false);
    view->setLineWrapMode(QPlainTextEdit::NoWrap);
    view->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    return view;
}

QGroupBox *box(const QString &title, QWidget *top, QWidget *view, QWidget *parent)
{
    auto *group = new QGroupBox(title, parent);
    auto *layout = new QVBoxLayout(group);
    if (top)
        layout->addWidget(top);
    layout->setContentsMargins(4, 4, 4, 4);
    view->setMinimumHeight(48); // a few lines; the splitter gives it more where there is room
    layout->addWidget(view, 1);
    return group;
}

// Long JSON is cut for display; the sizes shown with it are always the real ones.
QString displayed(const QString &json)
{
    constexpr qsizetype kMax = 128 * 1024; // more would hold the window while it is laid out
    if (json.size() <= kMax)
        return json;
    return json.left(kMax) +
           QCoreApplication::translate("SplitExampleView", "\n… (%1 more characters not shown)")
               .arg(json.size() - kMax);
}

QString indented(const QString &json)
{
    const QByteArray utf8 = json.toUtf8();
    const std::string text = JsonIndenter::indent(utf8.constData(), std::size_t(utf8.size()));
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

} // namespace

SplitExampleView::SplitExampleView(QWidget *parent)
    : QWidget(parent), m_before(jsonView(this)), m_primary(jsonView(this)),
      m_pages(new QComboBox(this)), m_page(jsonView(this)), m_job(new LatestJob(this))
{
    m_pages->setAccessibleName(tr("Overflow page"));
    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(box(tr("Before"), nullptr, m_before, split));
    split->addWidget(box(tr("Primary after the split"), nullptr, m_primary, split));
    split->addWidget(box(tr("Overflow pages"), m_pages, m_page, split));
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
    connect(m_pages, &QComboBox::currentIndexChanged, this, &SplitExampleView::showPage);
}

void SplitExampleView::clear()
{
    m_job->cancel();
    clearViews();
}

void SplitExampleView::clearViews()
{
    m_setting = true;
    m_pages->clear();
    m_setting = false;
    m_before->clear();
    m_primary->clear();
    m_page->clear();
    m_pageJson.clear();
}

void SplitExampleView::show(const QByteArray &document, const QString &idJson,
                            const SplitConfig &config)
{
    m_job->start(
        [document, config] {
            DocumentPreview preview = SplitPlanner::preview(document, config);
            preview.beforeJson = indented(preview.beforeJson);
            preview.primaryJson = indented(preview.primaryJson);
            for (QString &page : preview.pageJson)
                page = indented(page);
            return preview;
        },
        [this, idJson, config](const DocumentPreview &p) {
            display(p);
            emit shown(p, idJson, config);
        });
}

void SplitExampleView::display(const DocumentPreview &p)
{
    clearViews();
    if (!p.problem.isEmpty())
        return;
    m_before->setPlainText(displayed(p.beforeJson));
    m_primary->setPlainText(displayed(p.primaryJson));
    m_pageJson = p.pageJson;
    m_setting = true;
    for (int i = 0; i < p.pageJson.size(); ++i)
        m_pages->addItem(tr("Page %1 — %2").arg(i).arg(Format::bytes(p.pageSizes[i])));
    m_setting = false;
    showPage(0);
}

void SplitExampleView::showPage(int index)
{
    if (m_setting)
        return;
    m_page->setPlainText(index >= 0 && index < m_pageJson.size() ? displayed(m_pageJson[index])
                                                                 : QString());
}

} // namespace oe
