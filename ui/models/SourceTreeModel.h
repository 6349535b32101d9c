#pragma once

#include "analysis/SourceRef.h"
#include "mongo/Catalog.h"

#include <QAbstractItemModel>

#include <memory>
#include <vector>

namespace oe {

// The browser on the left: connections → databases → collections (with document counts and
// sizes), and the open dump files. Connections load in the background; until then (or on
// failure) they hold one message row saying so.
class SourceTreeModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column
    {
        Name,
        Documents,
        Size,
        ColumnCount
    };
    enum class Kind
    {
        Connection,
        Database,
        Collection,
        DumpGroup,
        Dump,
        Message
    };
    static constexpr int KindRole = Qt::UserRole;

    explicit SourceTreeModel(QObject *parent = nullptr);
    ~SourceTreeModel() override;

    // Adds the connection `name`, or reconnects the one of that name with `settings`.
    QModelIndex addConnection(const QString &name, const ConnectionSettings &settings);
    QModelIndex findConnection(const QString &name) const;
    // The connection's databases and collections; a reload updates the rows it had in place
    // (their indexes stay valid: a view keeps its selection and expansion), adds the new ones
    // and removes those gone.
    void setCatalog(const QModelIndex &connection, const Catalog &catalog);
    void setConnectionMessage(const QModelIndex &connection, const QString &message, bool error);
    // A few words on the connection's own row ("Needs its password"), in its Documents column
    // and its tooltip (`why` there too), seen with the row collapsed; gone when the connection
    // is connected again or its databases arrive.
    void setConnectionStatus(const QModelIndex &connection, const QString &status,
                             const QString &why);
    void removeConnection(const QModelIndex &connection);
    // Another label for a connection (its collections' sources follow); false when `name` is
    // empty or another connection has it.
    bool renameConnection(const QModelIndex &connection, const QString &name);
    QStringList connectionNames() const; // in the tree's order
    QStringList dumpPaths() const;       // absolute, in the tree's order
    // Closes a dump file (the group goes with its last dump).
    void removeDump(const QModelIndex &dump);
    QModelIndex addDump(const QString &path);
    QModelIndex findDump(const QString &path) const;
    QModelIndex findCollection(const QModelIndex &connection, const QString &database,
                               const QString &collection) const;
    Kind kindOf(const QModelIndex &index) const;
    // A source for collections and dumps; invalid for everything else.
    SourceRef sourceAt(const QModelIndex &index) const;
    ConnectionSettings settingsOf(const QModelIndex &connection) const;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    struct Node
    {
        Kind kind = Kind::Message;
        QString name;
        QString tip;
        QString status; // a connection's, on its own row
        bool error = false;
        std::optional<qint64> documents;
        std::optional<qint64> bytes;
        SourceRef ref;
        ConnectionSettings settings; // connections
        Node *parent = nullptr;
        std::vector<std::unique_ptr<Node>> children;
        int row() const;
    };
    Node *nodeOf(const QModelIndex &index) const;
    QModelIndex indexOf(Node *node) const;
    void replaceChildren(Node *node, std::vector<std::unique_ptr<Node>> children);
    void mergeChildren(Node *node, std::vector<std::unique_ptr<Node>> children);

    std::unique_ptr<Node> m_root;
};

} // namespace oe
