#include "shape/ShapeFlag.h"

namespace oe {

QString ShapeFlag::kindName(Kind kind)
{
    switch (kind) {
    case Kind::RareField:
        return QStringLiteral("rare_field");
    case Kind::MixedTypes:
        return QStringLiteral("mixed_types");
    case Kind::MixedElementTypes:
        return QStringLiteral("mixed_element_types");
    case Kind::KeysAsData:
        return QStringLiteral("keys_as_data");
    case Kind::BigScalar:
        return QStringLiteral("big_scalar");
    case Kind::ManyFields:
        return QStringLiteral("many_fields");
    case Kind::DeepNesting:
        return QStringLiteral("deep_nesting");
    case Kind::SparseFields:
        return QStringLiteral("sparse_fields");
    }
    return {};
}

} // namespace oe
