#pragma once

#include "remedy/Remedy.h"

namespace oe {

// Keys used as data to an array of {k, v} (the attribute pattern), in the object's order:
// {a: 1, b: 2} -> [{k: "a", v: 1}, {k: "b", v: 2}].
class KeysToArrayRemedy : public Remedy
{
public:
    RewriteKind kind() const override { return RewriteKind::KeysToArray; }
    QString name() const override { return QStringLiteral("keys_to_array"); }
    QString cliOption() const override { return QStringLiteral("keys-to-array"); }
    QString cliHelp() const override;
    QString label() const override;
    QString offer(const RewriteConfig &config) const override;
    QString cureName() const override { return QStringLiteral("Keys to an array of {k, v}"); }
    Options options() const override { return Option::KeyValueNames; }
    std::vector<ShapeFlag::Kind> cures() const override { return {ShapeFlag::Kind::KeysAsData}; }
    QString describe(const RewriteConfig &config) const override;
    QString subject(const RewriteConfig &) const override { return QStringLiteral("an object"); }
    QString indexSuggestion(const RewriteConfig &config) const override;
    QString consequence(const RewriteConfig &config) const override;
    QString windowNote(const RewriteConfig &config) const override;
    RewriteResult rewrite(const RewriteConfig &config, const QByteArray &raw) const override;
    QByteArray scanFilter(const RewriteConfig &config) const override;
};

} // namespace oe
