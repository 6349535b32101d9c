#include "pages/IndexesPage.h"

#include "charts/Format.h"
#include "jobs/LatestJob.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

namespace oe {

namespace {

QTableWidget *table(const QStringList &headers, QWidget *parent)
{
    auto *t = new QTableWidget(0, int(headers.size()), parent);
    t->setHorizontalHeaderLabels(headers);
    t->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    t->horizontalHeader()->setStretchLastSection(true);
    t->verticalHeader()->setVisible(false);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    return t;
}

QString examined(std::int64_t n)
{
    return n < 0 ? QStringLiteral("—") : Format::count(std::uint64_t(n));
}

} // namespace

IndexesPage::IndexesPage(QWidget *parent)
    : QWidget(parent), m_note(new QLabel(this)),
      m_indexes(table({tr("collection"), tr("index"), tr("keys"), tr("options")}, this)),
      m_id(new QLineEdit(this)), m_page(new QSpinBox(this)),
      m_explain(new QPushButton(tr("Explain the rea&ds"), this)),
      m_plans(table({tr("read"), tr("filter"), tr("plan"), tr("keys examined"),
                     tr("documents examined"), tr("returned")},
                    this)),
      m_listJob(new LatestJob(this)), m_planJob(new LatestJob(this))
{
    m_note->setWordWrap(true);
    m_id->setPlaceholderText(tr("_id as extended JSON, e.g. \"user-00142\" or {\"$oid\": \"…\"}"));
    m_page->setRange(0, 1000000);
    m_page->setPrefix(tr("deep page "));
    m_page->setValue(1);
    auto *readPath = new QHBoxLayout;
    auto *idLabel = new QLabel(tr("Read path of &_id:"), this);
    idLabel->setBuddy(m_id);
    readPath->addWidget(idLabel);
    readPath->addWidget(m_id, 1);
    readPath->addWidget(m_page);
    readPath->addWidget(m_explain);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_note);
    layout->addWidget(m_indexes, 1);
    layout->addLayout(readPath);
    layout->addWidget(m_plans, 1);
    connect(m_explain, &QPushButton::clicked, this, &IndexesPage::explain);
    connect(m_id, &QLineEdit::returnPressed, this, &IndexesPage::explain);
}

void IndexesPage::setSource(const SourceRef &source, const SplitConfig &layout,
                            const QString &idJson)
{
    const bool same =
        source.key() == m_source.key() && layout.overflowCollection == m_layout.overflowCollection;
    m_source = source;
    m_layout = layout;
    if (m_id->text().isEmpty() || !same)
        m_id->setText(idJson);
    const bool live = source.kind == SourceRef::Kind::Collection;
    m_explain->setEnabled(live);
    if (!live) {
        m_indexes->setRowCount(0);
        m_plans->setRowCount(0);
        m_note->setText(tr("Indexes are a collection's: connect to a server to see them."));
        return;
    }
    if (!same)
        reload();
}

void IndexesPage::reload()
{
    if (m_source.kind != SourceRef::Kind::Collection)
        return;
    m_note->setText(tr("Listing the indexes…"));
    const SourceRef source = m_source;
    const QString overflow = m_layout.overflowCollection;
    m_listJob->start(
        [source, overflow] {
            Listing out;
            out.collection = CollectionIndexes::list(source.settings, source.database,
                                                     source.collection, &out.error);
            if (!out.error.isError() && !overflow.isEmpty()) {
                SourceError missing; // no overflow yet: nothing to list
                out.overflow =
                    CollectionIndexes::list(source.settings, source.database, overflow, &missing);
            }
            return out;
        },
        [this](const Listing &listing) { showIndexes(listing); });
}

void IndexesPage::showIndexes(const Listing &listing)
{
    m_indexes->setRowCount(0);
    if (listing.error.isError()) {
        m_note->setText(tr("Could not list the indexes: %1").arg(listing.error.toString()));
        emit indexesShown();
        return;
    }
    const auto add = [this](const QString &collection, const CollectionIndexes::Index &index) {
        const int r = m_indexes->rowCount();
        m_indexes->insertRow(r);
        m_indexes->setItem(r, 0, new QTableWidgetItem(collection));
        m_indexes->setItem(r, 1, new QTableWidgetItem(index.name));
        m_indexes->setItem(r, 2, new QTableWidgetItem(index.keys));
        m_indexes->setItem(r, 3, new QTableWidgetItem(index.options.join(QStringLiteral(", "))));
    };
    for (const auto &index : listing.collection)
        add(m_source.collection, index);
    bool linkIndexed = false;
    for (const auto &index : listing.overflow) {
        add(m_layout.overflowCollection, index);
        linkIndexed = linkIndexed ||
                      index.keys.startsWith(QStringLiteral("{ \"%1\" : ").arg(m_layout.linkField));
    }
    m_note->setText(
        listing.overflow.empty()
            ? tr("Indexes of <b>%1</b>. Its overflow <i>%2</i> does not exist yet (a split makes "
                 "it, with the {%3, %4} index every page read uses).")
                  .arg(m_source.collection.toHtmlEscaped(),
                       m_layout.overflowCollection.toHtmlEscaped(),
                       m_layout.linkField.toHtmlEscaped(), m_layout.pageField.toHtmlEscaped())
            : tr("Indexes of <b>%1</b> and its overflow <i>%2</i>%3.")
                  .arg(m_source.collection.toHtmlEscaped(),
                       m_layout.overflowCollection.toHtmlEscaped(),
                       linkIndexed ? tr(" (page reads use the index on %1)")
                                         .arg(m_layout.linkField.toHtmlEscaped())
                                   : tr(": <b>no index starts with %1</b>, every page read scans "
                                        "the overflow")
                                         .arg(m_layout.linkField.toHtmlEscaped())));
    emit indexesShown();
}

void IndexesPage::explain()
{
    const QString id = m_id->text().trimmed();
    if (m_source.kind != SourceRef::Kind::Collection || id.isEmpty())
        return;
    const SourceRef source = m_source;
    const SplitConfig layout = m_layout;
    const int page = m_page->value();
    reload();
    m_plans->setRowCount(0);
    m_planJob->start(
        [source, layout, id, page] {
            Plans out;
            out.first =
                CollectionIndexes::explain(source.settings, source.database, source.collection,
                                           QStringLiteral("{\"_id\": %1}").arg(id));
            out.deep = CollectionIndexes::explain(source.settings, source.database,
                                                  layout.overflowCollection,
                                                  QStringLiteral("{\"%1\": %2, \"%3\": %4}")
                                                      .arg(layout.linkField, id, layout.pageField)
                                                      .arg(page));
            return out;
        },
        [this](const Plans &plans) { showPlans(plans); });
}

void IndexesPage::showPlans(const Plans &plans)
{
    const auto add = [this](const QString &what, const QString &where,
                            const CollectionIndexes::Plan &plan) {
        const int r = m_plans->rowCount();
        m_plans->insertRow(r);
        m_plans->setItem(r, 0, new QTableWidgetItem(what.arg(where)));
        m_plans->setItem(r, 1, new QTableWidgetItem(plan.filter));
        m_plans->setItem(r, 2,
                         new QTableWidgetItem(plan.error.isError() ? plan.error.toString()
                                              : plan.stages.isEmpty()
                                                  ? tr("(not reported by this server)")
                                                  : plan.stages.join(QStringLiteral(" ← "))));
        m_plans->setItem(r, 3, new QTableWidgetItem(examined(plan.keysExamined)));
        m_plans->setItem(r, 4, new QTableWidgetItem(examined(plan.documentsExamined)));
        m_plans->setItem(r, 5, new QTableWidgetItem(examined(plan.returned)));
    };
    add(tr("first page: the primary in %1"), m_source.collection, plans.first);
    add(tr("deep page: %1"), m_layout.overflowCollection, plans.deep);
    emit plansShown();
}

QString IndexesPage::noteText() const
{
    return m_note->text();
}

} // namespace oe
