#pragma once

#include "bson/DocumentOutline.h"

#include <QAbstractItemModel>
#include <QByteArray>

#include <memory>
#include <vector>

namespace oe {

// A BSON document as a tree that expands lazily: a level is read only when it is opened, and
// long arrays arrive in chunks (fetchMore), so a 15 MB document with 100,000 elements opens
// at once. Columns: field, type, value, size.
class DocumentTreeModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column
    {
        Key,
        Type,
        Value,
        Size,
        ColumnCount
    };
    static constexpr qint64 kChunk = 500;

    explicit DocumentTreeModel(QObject *parent = nullptr);
    ~DocumentTreeModel() override;
    void setDocument(const QByteArray &document);
    QString error() const { return m_error; }

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    bool hasChildren(const QModelIndex &parent = {}) const override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    struct Node
    {
        Node *parent = nullptr;
        int row = 0;
        OutlineEntry entry;
        qint64 total = -1; // children in the BSON; -1 until first counted
        std::vector<std::unique_ptr<Node>> children;
    };
    Node *nodeOf(const QModelIndex &index) const;
    qint64 totalOf(Node *node) const;

    QByteArray m_document;
    std::unique_ptr<Node> m_root;
    QString m_error;
    bool m_fetching = false;
};

} // namespace oe
