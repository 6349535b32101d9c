#pragma once

#include "analysis/SourceRef.h"
#include "mongo/CollectionIndexes.h"
#include "split/SplitConfig.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace oe {

class LatestJob;

// The Indexes tab: the collection's indexes and its overflow collection's (where the
// {link, page} index serves every page read), and the plan the server picks for the read path
// of one document: its primary by _id (the first page), and page N of its overflow (a deep
// page), each with its stages, keys and documents examined.
class IndexesPage : public QWidget
{
    Q_OBJECT
public:
    explicit IndexesPage(QWidget *parent = nullptr);

    // The collection (anything else shows a note), its split layout, and an _id to explain
    // the read path with (the largest outlier's, say).
    void setSource(const SourceRef &source, const SplitConfig &layout, const QString &idJson);
    void reload(); // the indexes of both collections
    // The two reads of the _id in the box, and the indexes read again with them: the listing
    // never predates the plans it sits above.
    void explain();

    QTableWidget *indexTable() const { return m_indexes; }
    QTableWidget *planTable() const { return m_plans; }
    QLineEdit *idEdit() const { return m_id; }
    QSpinBox *pageBox() const { return m_page; }
    QString noteText() const;

signals:
    void indexesShown();
    void plansShown();

private:
    struct Listing
    {
        std::vector<CollectionIndexes::Index> collection, overflow;
        SourceError error;
    };
    struct Plans
    {
        CollectionIndexes::Plan first, deep;
    };
    void showIndexes(const Listing &listing);
    void showPlans(const Plans &plans);

    SourceRef m_source;
    SplitConfig m_layout;
    QLabel *m_note;
    QTableWidget *m_indexes;
    QLineEdit *m_id;
    QSpinBox *m_page;
    QPushButton *m_explain;
    QTableWidget *m_plans;
    LatestJob *m_listJob;
    LatestJob *m_planJob;
};

} // namespace oe
