#pragma once

#include "remedy/Remedy.h"

namespace oe {

// The subset pattern: a big string, binary or sub-document moved to a side collection
// ({_id: the parent's _id, <leaf>: the value}); the document keeps an excerpt of the same type
// in its place and a flag.
class ExtractRemedy : public Remedy
{
public:
    RewriteKind kind() const override { return RewriteKind::Extract; }
    QString name() const override { return QStringLiteral("extract"); }
    QString cliOption() const override { return QStringLiteral("extract"); }
    QString cliHelp() const override;
    QString label() const override;
    QString offer(const RewriteConfig &config) const override;
    QString cureName() const override { return QStringLiteral("Extract to a side collection"); }
    Options options() const override { return Option::MinBytes | Option::SideCollection; }
    std::vector<ShapeFlag::Kind> cures() const override { return {ShapeFlag::Kind::BigScalar}; }
    QString problem(const RewriteConfig &config) const override;
    QString describe(const RewriteConfig &config) const override;
    QString subject(const RewriteConfig &config) const override;
    QString consequence(const RewriteConfig &config) const override;
    QString windowNote(const RewriteConfig &config) const override;
    RewriteResult rewrite(const RewriteConfig &config, const QByteArray &raw) const override;
    QByteArray scanFilter(const RewriteConfig &config) const override;
    QString flagField(const RewriteConfig &config) const override { return config.flag(); }
    std::unique_ptr<SideStore> sideStore(MongoConnection &connection, const QString &database,
                                         const RewriteConfig &config) const override;
    QString storeName(const RewriteConfig &config) const override;
};

} // namespace oe
