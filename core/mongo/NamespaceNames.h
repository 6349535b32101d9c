#pragma once

#include <QString>

namespace oe {

// MongoDB's rules for database and collection names, plus what makes a name safe as a file name
// in a dump folder (an offline split writes <collection>.bson): a name that passes never
// escapes its directory. Each check returns an empty string for a good name, else one line
// naming the option (`what`) and the problem.
class NamespaceNames
{
public:
    static QString collectionProblem(const QString &what, const QString &name);
    static QString databaseProblem(const QString &what, const QString &name);

    // Longest collection name whose every derived file name (<name>_outlier_migrations.bson)
    // still fits a file system's 255-byte limit.
    static constexpr int kMaxCollectionBytes = 200;
    static constexpr int kMaxDatabaseBytes = 63;
};

} // namespace oe
