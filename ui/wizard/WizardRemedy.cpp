#include "wizard/WizardRemedy.h"

#include "explore/AnalysisResult.h"
#include "remedy/RemedyRegistry.h"

#include <QCoreApplication>

namespace oe {

std::vector<WizardRemedy> WizardRemedy::candidates(const AnalysisResult &result)
{
    std::vector<WizardRemedy> out;
    for (const ShapeFlag &flag : result.shape.flags) {
        // With schema versions in effect a type is judged within each version: a rule or a
        // rewrite for the whole collection would touch the versions that rightly have it.
        if (result.shape.versions.inEffect() && flag.isFieldKind())
            continue;
        if (flag.kind == ShapeFlag::Kind::SparseFields) { // the family into one array
            WizardRemedy remedy;
            remedy.flag = flag;
            remedy.rewrite =
                RewriteConfig::forSparseFamily(flag, result.request.source.collectionName());
            if (remedy.rewrite)
                out.push_back(std::move(remedy));
            continue;
        }
        const FieldProfile *field = result.profile.field(flag.path);
        if (!field)
            continue;
        WizardRemedy remedy;
        remedy.flag = flag;
        remedy.rewrite =
            RewriteConfig::forShapeFlag(flag, *field, result.request.source.collectionName(),
                                        qint64(result.request.shape.bigScalarBytes));
        if (GuardRule::offersTypeRule(flag))
            remedy.typeRule = GuardRule::forMixedType(flag, *field);
        if (remedy.rewrite || remedy.typeRule)
            out.push_back(std::move(remedy));
    }
    return out;
}

QString WizardRemedy::name() const
{
    const auto tr = [](const char *text) {
        return QCoreApplication::translate("WizardRemedy", text);
    };
    if (typeRule)
        return rewrite ? tr("Type guard (and a conversion)") : tr("Type guard");
    if (!rewrite)
        return {};
    // The remedies curing the flag, the suggested one among them: "Extract to a side
    // collection, or store in GridFS".
    const Remedy &suggested = RemedyRegistry::of(rewrite->kind);
    QStringList names;
    for (const Remedy *remedy : RemedyRegistry::curing(flag.kind))
        names << remedy->cureName();
    if (!names.contains(suggested.cureName()))
        return suggested.cureName();
    return names.join(QStringLiteral(", or "));
}

QString WizardRemedy::outlierName() const
{
    const auto tr = [](const char *text) {
        return QCoreApplication::translate("WizardRemedy", text);
    };
    switch (flag.kind) {
    case ShapeFlag::Kind::BigScalar:
        return tr("big values");
    case ShapeFlag::Kind::KeysAsData:
        return tr("keys used as data");
    case ShapeFlag::Kind::MixedTypes:
    case ShapeFlag::Kind::MixedElementTypes:
        return tr("mixed types");
    case ShapeFlag::Kind::SparseFields:
        return tr("sparse fields");
    default:
        return tr("shape");
    }
}

} // namespace oe
