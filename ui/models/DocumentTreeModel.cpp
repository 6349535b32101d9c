#include "models/DocumentTreeModel.h"

#include "charts/Format.h"

namespace oe {

DocumentTreeModel::DocumentTreeModel(QObject *parent) : QAbstractItemModel(parent)
{
    setDocument({});
}

DocumentTreeModel::~DocumentTreeModel() = default;

void DocumentTreeModel::setDocument(const QByteArray &document)
{
    beginResetModel();
    m_document = document;
    m_root = std::make_unique<Node>();
    m_root->entry.childOffset = document.isEmpty() ? -1 : 0;
    m_error.clear();
    // The top level is read at once (inside the reset), so views show it without a fetch.
    if (m_root->entry.isContainer()) {
        QString error;
        auto entries = DocumentOutline::children(m_document, 0, 0, kChunk, &m_root->total, &error);
        m_error = error;
        for (auto &e : entries) {
            auto child = std::make_unique<Node>();
            child->parent = m_root.get();
            child->row = int(m_root->children.size());
            child->entry = std::move(e);
            m_root->children.push_back(std::move(child));
        }
    }
    endResetModel();
}

DocumentTreeModel::Node *DocumentTreeModel::nodeOf(const QModelIndex &index) const
{
    return index.isValid() ? static_cast<Node *>(index.internalPointer()) : m_root.get();
}

qint64 DocumentTreeModel::totalOf(Node *node) const
{
    if (!node->entry.isContainer())
        return 0;
    if (node->total < 0)
        node->total =
            std::max<qint64>(0, DocumentOutline::count(m_document, node->entry.childOffset));
    return node->total;
}

QModelIndex DocumentTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    Node *p = nodeOf(parent);
    return createIndex(row, column, p->children[std::size_t(row)].get());
}

QModelIndex DocumentTreeModel::parent(const QModelIndex &child) const
{
    if (!child.isValid())
        return {};
    Node *p = nodeOf(child)->parent;
    if (!p || p == m_root.get())
        return {};
    return createIndex(p->row, 0, p);
}

int DocumentTreeModel::rowCount(const QModelIndex &parent) const
{
    if (parent.column() > 0)
        return 0;
    return int(nodeOf(parent)->children.size());
}

int DocumentTreeModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

bool DocumentTreeModel::hasChildren(const QModelIndex &parent) const
{
    if (parent.column() > 0)
        return false;
    Node *node = nodeOf(parent);
    return node->entry.isContainer() &&
           (node->entry.childCount > 0 || !node->children.empty() || node == m_root.get());
}

bool DocumentTreeModel::canFetchMore(const QModelIndex &parent) const
{
    if (parent.column() > 0)
        return false;
    Node *node = nodeOf(parent);
    return !m_fetching && node->entry.isContainer() &&
           qint64(node->children.size()) < totalOf(node);
}

void DocumentTreeModel::fetchMore(const QModelIndex &parent)
{
    if (!canFetchMore(parent))
        return;
    Node *node = nodeOf(parent);
    const qint64 first = qint64(node->children.size());
    qint64 total = 0;
    QString error;
    auto entries = DocumentOutline::children(m_document, node->entry.childOffset, first, kChunk,
                                             &total, &error);
    if (!error.isEmpty())
        m_error = error;
    node->total = total;
    if (entries.empty()) {
        node->total = first; // nothing more can be read: stop asking
        return;
    }
    // Views and testers may ask again from inside the insert notifications: not re-entrant.
    m_fetching = true;
    beginInsertRows(parent, int(first), int(first + qint64(entries.size()) - 1));
    for (auto &e : entries) {
        auto child = std::make_unique<Node>();
        child->parent = node;
        child->row = int(node->children.size());
        child->entry = std::move(e);
        node->children.push_back(std::move(child));
    }
    endInsertRows();
    m_fetching = false;
}

QVariant DocumentTreeModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const OutlineEntry &e = nodeOf(index)->entry;
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Key:
            return e.key;
        case Type:
            return e.type;
        case Value:
            return e.preview;
        case Size:
            return Format::bytes(std::uint64_t(e.valueBytes));
        }
    }
    if (role == Qt::ToolTipRole && index.column() == Value)
        return e.preview;
    if (role == Qt::TextAlignmentRole && index.column() == Size)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant DocumentTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Key:
        return tr("Field");
    case Type:
        return tr("Type");
    case Value:
        return tr("Value");
    case Size:
        return tr("Size");
    }
    return {};
}

} // namespace oe
