#include "models/SourceTreeModel.h"

#include "charts/Format.h"
#include "mongo/UriRedactor.h"

#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QStyle>

#include <algorithm>

namespace oe {

int SourceTreeModel::Node::row() const
{
    if (!parent)
        return 0;
    for (std::size_t i = 0; i < parent->children.size(); ++i)
        if (parent->children[i].get() == this)
            return int(i);
    return 0;
}

SourceTreeModel::SourceTreeModel(QObject *parent)
    : QAbstractItemModel(parent), m_root(std::make_unique<Node>())
{
}

SourceTreeModel::~SourceTreeModel() = default;

SourceTreeModel::Node *SourceTreeModel::nodeOf(const QModelIndex &index) const
{
    return index.isValid() ? static_cast<Node *>(index.internalPointer()) : m_root.get();
}

QModelIndex SourceTreeModel::indexOf(Node *node) const
{
    if (!node || node == m_root.get())
        return {};
    return createIndex(node->row(), 0, node);
}

QModelIndex SourceTreeModel::addConnection(const QString &name, const ConnectionSettings &settings)
{
    // A name is one connection: connecting it again (a retry after a wrong password, the same
    // saved connection twice) reconnects that row with the new settings instead of adding a
    // second row that nothing would ever load.
    if (const QModelIndex existing = findConnection(name); existing.isValid()) {
        Node *node = nodeOf(existing);
        node->settings = settings;
        node->tip = UriRedactor::redact(settings.uri);
        node->status.clear();
        emit dataChanged(existing, existing.siblingAtColumn(ColumnCount - 1));
        setConnectionMessage(existing, tr("Connecting…"), false);
        return existing;
    }
    auto node = std::make_unique<Node>();
    node->kind = Kind::Connection;
    node->name = name;
    node->settings = settings;
    node->tip = UriRedactor::redact(settings.uri);
    node->parent = m_root.get();
    // Connections above the dump group.
    int row = 0;
    while (row < int(m_root->children.size()) &&
           m_root->children[std::size_t(row)]->kind == Kind::Connection)
        ++row;
    beginInsertRows({}, row, row);
    Node *raw = node.get();
    m_root->children.insert(m_root->children.begin() + row, std::move(node));
    endInsertRows();
    setConnectionMessage(indexOf(raw), tr("Connecting…"), false);
    return indexOf(raw);
}

void SourceTreeModel::removeConnection(const QModelIndex &connection)
{
    Node *node = nodeOf(connection);
    if (!connection.isValid() || node->kind != Kind::Connection)
        return;
    const int row = node->row();
    beginRemoveRows({}, row, row);
    m_root->children.erase(m_root->children.begin() + row);
    endRemoveRows();
}

void SourceTreeModel::removeDump(const QModelIndex &dump)
{
    Node *node = nodeOf(dump);
    if (!dump.isValid() || node->kind != Kind::Dump)
        return;
    Node *group = node->parent;
    if (group->children.size() == 1) { // the group goes with it
        const int row = group->row();
        beginRemoveRows({}, row, row);
        m_root->children.erase(m_root->children.begin() + row);
        endRemoveRows();
        return;
    }
    const int row = node->row();
    beginRemoveRows(indexOf(group), row, row);
    group->children.erase(group->children.begin() + row);
    endRemoveRows();
}

void SourceTreeModel::replaceChildren(Node *node, std::vector<std::unique_ptr<Node>> children)
{
    const QModelIndex parent = indexOf(node);
    if (!node->children.empty()) {
        beginRemoveRows(parent, 0, int(node->children.size()) - 1);
        node->children.clear();
        endRemoveRows();
    }
    if (children.empty())
        return;
    beginInsertRows(parent, 0, int(children.size()) - 1);
    for (auto &child : children) {
        child->parent = node;
        node->children.push_back(std::move(child));
    }
    endInsertRows();
}

void SourceTreeModel::mergeChildren(Node *node, std::vector<std::unique_ptr<Node>> children)
{
    const QModelIndex parent = indexOf(node);
    const auto same = [](const Node &a, const Node &b) {
        return a.kind == b.kind && a.name == b.name;
    };
    // Rows gone (a message row among them) first, then each row of `children` in its place:
    // the row there already updated in place, else inserted.
    for (int row = int(node->children.size()) - 1; row >= 0; --row)
        if (std::none_of(children.begin(), children.end(), [&](const auto &fresh) {
                return same(*fresh, *node->children[std::size_t(row)]);
            })) {
            beginRemoveRows(parent, row, row);
            node->children.erase(node->children.begin() + row);
            endRemoveRows();
        }
    for (int row = 0; row < int(children.size()); ++row) {
        std::unique_ptr<Node> &fresh = children[std::size_t(row)];
        if (row < int(node->children.size()) && same(*node->children[std::size_t(row)], *fresh)) {
            Node *old = node->children[std::size_t(row)].get();
            old->tip = fresh->tip;
            old->error = fresh->error;
            old->documents = fresh->documents;
            old->bytes = fresh->bytes;
            old->ref = fresh->ref;
            emit dataChanged(index(row, 0, parent), index(row, ColumnCount - 1, parent));
            mergeChildren(old, std::move(fresh->children));
            continue;
        }
        // Listed further down (the order changed): moved here as a new row.
        for (int later = row + 1; later < int(node->children.size()); ++later)
            if (same(*node->children[std::size_t(later)], *fresh)) {
                beginRemoveRows(parent, later, later);
                node->children.erase(node->children.begin() + later);
                endRemoveRows();
                break;
            }
        beginInsertRows(parent, row, row);
        fresh->parent = node;
        node->children.insert(node->children.begin() + row, std::move(fresh));
        endInsertRows();
    }
}

bool SourceTreeModel::renameConnection(const QModelIndex &connection, const QString &name)
{
    Node *node = nodeOf(connection);
    if (!connection.isValid() || node->kind != Kind::Connection || name.trimmed().isEmpty())
        return false;
    if (const QModelIndex other = findConnection(name); other.isValid())
        return other == connection;
    node->name = name;
    for (const auto &database : node->children)
        for (const auto &collection : database->children)
            collection->ref.connectionName = name;
    emit dataChanged(connection, connection.siblingAtColumn(ColumnCount - 1));
    return true;
}

QStringList SourceTreeModel::connectionNames() const
{
    QStringList names;
    for (const auto &child : m_root->children)
        if (child->kind == Kind::Connection)
            names << child->name;
    return names;
}

QStringList SourceTreeModel::dumpPaths() const
{
    QStringList paths;
    for (const auto &group : m_root->children)
        if (group->kind == Kind::DumpGroup)
            for (const auto &dump : group->children)
                paths << dump->ref.dumpPath;
    return paths;
}

void SourceTreeModel::setConnectionMessage(const QModelIndex &connection, const QString &message,
                                           bool error)
{
    Node *node = nodeOf(connection);
    if (!connection.isValid() || node->kind != Kind::Connection)
        return;
    auto msg = std::make_unique<Node>();
    msg->kind = Kind::Message;
    msg->name = message;
    msg->tip = message;
    msg->error = error;
    std::vector<std::unique_ptr<Node>> children;
    children.push_back(std::move(msg));
    replaceChildren(node, std::move(children));
}

void SourceTreeModel::setConnectionStatus(const QModelIndex &connection, const QString &status,
                                          const QString &why)
{
    Node *node = nodeOf(connection);
    if (!connection.isValid() || node->kind != Kind::Connection)
        return;
    node->status = status;
    node->tip = UriRedactor::redact(node->settings.uri);
    if (!why.isEmpty())
        node->tip += QLatin1Char('\n') + why;
    emit dataChanged(connection.siblingAtColumn(0), connection.siblingAtColumn(ColumnCount - 1));
}

void SourceTreeModel::setCatalog(const QModelIndex &connection, const Catalog &catalog)
{
    Node *conn = nodeOf(connection);
    if (!connection.isValid() || conn->kind != Kind::Connection)
        return;
    if (!conn->status.isEmpty())
        setConnectionStatus(connection, {}, {});
    if (catalog.error.isError()) {
        setConnectionMessage(connection, catalog.error.toString(), true);
        return;
    }
    std::vector<std::unique_ptr<Node>> databases;
    for (const auto &db : catalog.databases) {
        auto dbNode = std::make_unique<Node>();
        dbNode->kind = Kind::Database;
        dbNode->name = db.info.name;
        dbNode->tip = tr("Database %1").arg(db.info.name);
        for (const auto &c : db.collections) {
            // system.* (users, roles, views, profile) hold no application data: not offered,
            // as `outlier-explorer-cli list` leaves them out without --system.
            if (c.isSystem)
                continue;
            // The database's size is its documents' too, like its collections' (not the
            // storage size on disk, compressed and with indexes: that is in the tooltip).
            if (c.dataSize)
                dbNode->bytes = dbNode->bytes.value_or(0) + *c.dataSize;
            auto node = std::make_unique<Node>();
            node->kind = Kind::Collection;
            node->name = c.name;
            node->documents = c.documents;
            node->bytes = c.dataSize;
            node->tip =
                c.isView() ? tr("%1 (view: analysed through the view)").arg(c.ns())
                           : tr("%1 — statistics from %2")
                                 .arg(c.ns(), c.statsSource.isEmpty() ? tr("nowhere (none offered)")
                                                                      : c.statsSource);
            node->ref.kind = SourceRef::Kind::Collection;
            node->ref.connectionName = conn->name;
            node->ref.settings = conn->settings;
            node->ref.database = c.database;
            node->ref.collection = c.name;
            node->parent = dbNode.get();
            dbNode->children.push_back(std::move(node));
        }
        if (dbNode->children.empty() && !db.collections.empty())
            continue; // only system collections (admin, config): nothing to browse
        if (db.info.sizeOnDisk)
            dbNode->tip = tr("Database %1 — %2 on disk (compressed, with indexes)")
                              .arg(db.info.name, Format::bytes(std::uint64_t(*db.info.sizeOnDisk)));
        databases.push_back(std::move(dbNode));
    }
    if (databases.empty()) {
        setConnectionMessage(connection, tr("No databases visible to this user."), false);
        return;
    }
    mergeChildren(conn, std::move(databases));
}

QModelIndex SourceTreeModel::addDump(const QString &path)
{
    if (const QModelIndex existing = findDump(path); existing.isValid())
        return existing;
    Node *group = nullptr;
    for (auto &child : m_root->children)
        if (child->kind == Kind::DumpGroup)
            group = child.get();
    if (!group) {
        auto node = std::make_unique<Node>();
        node->kind = Kind::DumpGroup;
        node->name = tr("Dump files");
        node->tip = tr("mongodump .bson files opened with File → Open dump…");
        node->parent = m_root.get();
        const int row = int(m_root->children.size());
        beginInsertRows({}, row, row);
        group = node.get();
        m_root->children.push_back(std::move(node));
        endInsertRows();
    }
    auto node = std::make_unique<Node>();
    node->kind = Kind::Dump;
    const QFileInfo info(path);
    node->name = info.fileName();
    node->tip = QDir::toNativeSeparators(info.absoluteFilePath());
    node->bytes = info.size();
    node->ref.kind = SourceRef::Kind::Dump;
    node->ref.dumpPath = info.absoluteFilePath();
    node->parent = group;
    const int row = int(group->children.size());
    beginInsertRows(indexOf(group), row, row);
    Node *raw = node.get();
    group->children.push_back(std::move(node));
    endInsertRows();
    return indexOf(raw);
}

QModelIndex SourceTreeModel::findConnection(const QString &name) const
{
    for (const auto &child : m_root->children)
        if (child->kind == Kind::Connection && child->name == name)
            return indexOf(child.get());
    return {};
}

QModelIndex SourceTreeModel::findDump(const QString &path) const
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    for (const auto &group : m_root->children)
        if (group->kind == Kind::DumpGroup)
            for (const auto &dump : group->children)
                if (dump->ref.dumpPath == absolute)
                    return indexOf(dump.get());
    return {};
}

QModelIndex SourceTreeModel::findCollection(const QModelIndex &connection, const QString &database,
                                            const QString &collection) const
{
    Node *conn = nodeOf(connection);
    if (!connection.isValid())
        return {};
    for (const auto &db : conn->children)
        if (db->kind == Kind::Database && db->name == database)
            for (const auto &c : db->children)
                if (c->name == collection)
                    return indexOf(c.get());
    return {};
}

SourceTreeModel::Kind SourceTreeModel::kindOf(const QModelIndex &index) const
{
    return index.isValid() ? nodeOf(index)->kind : Kind::Message;
}

SourceRef SourceTreeModel::sourceAt(const QModelIndex &index) const
{
    return index.isValid() ? nodeOf(index.siblingAtColumn(0))->ref : SourceRef();
}

ConnectionSettings SourceTreeModel::settingsOf(const QModelIndex &connection) const
{
    return connection.isValid() ? nodeOf(connection)->settings : ConnectionSettings();
}

QModelIndex SourceTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    return createIndex(row, column, nodeOf(parent)->children[std::size_t(row)].get());
}

QModelIndex SourceTreeModel::parent(const QModelIndex &child) const
{
    if (!child.isValid())
        return {};
    return indexOf(nodeOf(child)->parent);
}

int SourceTreeModel::rowCount(const QModelIndex &parent) const
{
    if (parent.column() > 0)
        return 0;
    return int(nodeOf(parent)->children.size());
}

int SourceTreeModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant SourceTreeModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Node *node = nodeOf(index);
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case Name:
            return node->name;
        case Documents:
            if (!node->status.isEmpty())
                return node->status;
            return node->documents ? Format::count(std::uint64_t(*node->documents)) : QString();
        case Size:
            return node->bytes ? Format::bytes(std::uint64_t(*node->bytes)) : QString();
        }
        break;
    case Qt::ToolTipRole:
        return node->tip;
    case KindRole:
        return int(node->kind);
    case Qt::TextAlignmentRole:
        if (index.column() != Name)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        break;
    case Qt::ForegroundRole:
        if (node->error || (index.column() == Documents && !node->status.isEmpty()))
            return QColor(0xd9, 0x48, 0x0f);
        break;
    case Qt::DecorationRole: {
        if (index.column() != Name)
            break;
        const QStyle *style = QApplication::style();
        switch (node->kind) {
        case Kind::Connection:
            return style->standardIcon(QStyle::SP_DriveNetIcon);
        case Kind::Database:
        case Kind::DumpGroup:
            return style->standardIcon(QStyle::SP_DirIcon);
        case Kind::Collection:
        case Kind::Dump:
            return style->standardIcon(QStyle::SP_FileIcon);
        case Kind::Message:
            return style->standardIcon(node->error ? QStyle::SP_MessageBoxWarning
                                                   : QStyle::SP_MessageBoxInformation);
        }
        break;
    }
    }
    return {};
}

QVariant SourceTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole && section == Size)
        return tr("The documents' BSON size, from the server's statistics (a dump: the file's "
                  "size). Storage on disk is in a database's tooltip.");
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name:
        return tr("Source");
    case Documents:
        return tr("Documents");
    case Size:
        return tr("Size");
    }
    return {};
}

} // namespace oe
