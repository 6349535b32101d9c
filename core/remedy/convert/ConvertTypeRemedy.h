#pragma once

#include "remedy/Remedy.h"

namespace oe {

// A mixed-type field to one type ("12.50" -> 12.5), only where that is exact: a string that is
// a whole number in the target's range, an integral double to int, an int to double up to
// 2^53; never a silent truncation or a parse of part of a string. What cannot be, is not.
class ConvertTypeRemedy : public Remedy
{
public:
    RewriteKind kind() const override { return RewriteKind::ConvertType; }
    QString name() const override { return QStringLiteral("convert"); }
    QString cliOption() const override { return QStringLiteral("convert-to"); }
    QString cliValueName() const override { return QStringLiteral("TYPE"); }
    QString cliHelp() const override;
    QString label() const override;
    QString offer(const RewriteConfig &config) const override;
    QString cureName() const override { return QStringLiteral("Convert to one type"); }
    Options options() const override { return Option::TargetType; }
    std::vector<ShapeFlag::Kind> cures() const override { return {ShapeFlag::Kind::MixedTypes}; }
    std::optional<RewriteConfig> suggest(const ShapeFlag &flag, const FieldProfile &field,
                                         const QString &collection,
                                         qint64 bigScalarBytes) const override;
    void takeCliValue(RewriteConfig *config, const QString &value) const override
    {
        config->targetType = value;
    }
    QString problem(const RewriteConfig &config) const override;
    QString describe(const RewriteConfig &config) const override;
    QString subject(const RewriteConfig &config) const override;
    RewriteResult rewrite(const RewriteConfig &config, const QByteArray &raw) const override;
    QByteArray scanFilter(const RewriteConfig &config) const override;
};

} // namespace oe
