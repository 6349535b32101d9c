#pragma once

#include "remedy/Remedy.h"

namespace oe {

// A big binary (a string, when asked) moved to a GridFS bucket's file; the document keeps the
// file's _id (an ObjectId) in its place.
class GridFsRemedy : public Remedy
{
public:
    RewriteKind kind() const override { return RewriteKind::GridFs; }
    QString name() const override { return QStringLiteral("gridfs"); }
    QString cliOption() const override { return QStringLiteral("gridfs"); }
    QString cliHelp() const override;
    QString label() const override { return QStringLiteral("Store in GridFS (large binaries)"); }
    QString offer(const RewriteConfig &config) const override;
    QString cureName() const override { return QStringLiteral("store in GridFS"); }
    Options options() const override { return Option::MinBytes | Option::Bucket; }
    std::vector<ShapeFlag::Kind> cures() const override { return {ShapeFlag::Kind::BigScalar}; }
    QString problem(const RewriteConfig &config) const override;
    QString describe(const RewriteConfig &config) const override;
    QString subject(const RewriteConfig &config) const override;
    QString consequence(const RewriteConfig &config) const override;
    QString windowNote(const RewriteConfig &config) const override;
    RewriteResult rewrite(const RewriteConfig &config, const QByteArray &raw) const override;
    // A file's id is new each time: a journal's after is one.
    bool sameAfter(const QByteArray &recomputed, const QByteArray &journaled) const override;
    QByteArray scanFilter(const RewriteConfig &config) const override;
    std::unique_ptr<SideStore> sideStore(MongoConnection &connection, const QString &database,
                                         const RewriteConfig &config) const override;
    QString storeName(const RewriteConfig &config) const override;
};

} // namespace oe
