#pragma once

#include "remedy/Remedy.h"

namespace oe {

// A top-level field renamed across the collection ("userName" -> "user_name"). The value is
// kept as it is; the field moves to the end of the document, as MongoDB's $rename moves it,
// and the rollback puts it back under its old name in its old place. A document that holds
// the new name already is listed and left as it is.
class RenameRemedy : public Remedy
{
public:
    RewriteKind kind() const override { return RewriteKind::Rename; }
    QString name() const override { return QStringLiteral("rename"); }
    QString cliOption() const override { return QStringLiteral("rename-to"); }
    QString cliValueName() const override { return QStringLiteral("NAME"); }
    QString cliHelp() const override;
    QString label() const override { return QStringLiteral("Rename the field"); }
    QString offer(const RewriteConfig &config) const override;
    QString cureName() const override { return QStringLiteral("Rename the field"); }
    Options options() const override { return Option::NewName; }
    Unit unit() const override { return Unit::Fields; }
    // A rare field is often an old or misspelt name of a common one.
    std::vector<ShapeFlag::Kind> cures() const override { return {ShapeFlag::Kind::RareField}; }
    std::optional<RewriteConfig> suggest(const ShapeFlag &flag, const FieldProfile &field,
                                         const QString &collection,
                                         qint64 bigScalarBytes) const override;
    void takeCliValue(RewriteConfig *config, const QString &value) const override
    {
        config->newName = value;
    }
    QString problem(const RewriteConfig &config) const override;
    QString describe(const RewriteConfig &config) const override;
    QString subject(const RewriteConfig &config) const override;
    QString consequence(const RewriteConfig &config) const override;
    QString windowNote(const RewriteConfig &config) const override;
    RewriteResult rewrite(const RewriteConfig &config, const QByteArray &raw) const override;
    QByteArray scanFilter(const RewriteConfig &config) const override;
    QStringList movedFields(const RewriteConfig &config) const override { return {config.path}; }
    QStringList madeFields(const RewriteConfig &config) const override { return {config.newName}; }
};

} // namespace oe
