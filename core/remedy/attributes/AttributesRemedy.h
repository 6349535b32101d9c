#pragma once

#include "remedy/Remedy.h"

namespace oe {

// The attribute pattern for a sparse family of top-level fields: the chosen fields move into
// one array at `path`, [{k: "voltage", v: 12}, ...] in each document's order, indexed
// {<path>.k: 1, <path>.v: 1} once they are moved.
class AttributesRemedy : public Remedy
{
public:
    RewriteKind kind() const override { return RewriteKind::Attributes; }
    QString name() const override { return QStringLiteral("attributes"); }
    QString cliOption() const override { return QStringLiteral("attributes"); }
    QString cliHelp() const override;
    QString label() const override;
    QString offer(const RewriteConfig &config) const override;
    QString cureName() const override
    {
        return QStringLiteral("Sparse fields to one array of {k, v}");
    }
    Options options() const override { return Option::KeyValueNames | Option::Fields; }
    Unit unit() const override { return Unit::Fields; }
    Scope scope() const override { return Scope::FieldFamily; }
    std::vector<ShapeFlag::Kind> cures() const override { return {ShapeFlag::Kind::SparseFields}; }
    std::optional<RewriteConfig> suggest(const ShapeFlag &flag, const FieldProfile &field,
                                         const QString &collection,
                                         qint64 bigScalarBytes) const override;
    void fillDefaults(RewriteConfig *config) const override;
    QString problem(const RewriteConfig &config) const override;
    QString describe(const RewriteConfig &config) const override;
    QString subject(const RewriteConfig &config) const override;
    QString consequence(const RewriteConfig &config) const override;
    QString windowNote(const RewriteConfig &config) const override;
    QString indexSuggestion(const RewriteConfig &config) const override;
    bool createsIndex() const override { return true; }
    RewriteResult rewrite(const RewriteConfig &config, const QByteArray &raw) const override;
    QByteArray scanFilter(const RewriteConfig &config) const override;
    QStringList movedFields(const RewriteConfig &config) const override { return config.fields; }
    QStringList madeFields(const RewriteConfig &config) const override { return {config.path}; }
};

} // namespace oe
