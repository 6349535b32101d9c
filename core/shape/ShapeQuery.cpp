#include "shape/ShapeQuery.h"

#include "analysis/PathSegment.h"
#include "bson/internal/BsonDocument.h"
#include "bson/internal/BsonRaw.h"

#include <bson/bson.h>

#include <string>
#include <string_view>

namespace oe {

namespace {

QString relaxed(const bson_t *doc)
{
    std::size_t length = 0;
    char *json = bson_as_relaxed_extended_json(doc, &length);
    const QString text = QString::fromUtf8(json, qsizetype(length));
    bson_free(json);
    return text;
}

// A version's documents: {field: value}; those without one {field: {$nin: [the versions'
// values]}}, which also holds where the field is missing or holds a value no version has.
void versionCondition(bson_t *filter, const ShapeFlag::Version &version)
{
    const std::string &field = version.field;
    if (!version.raw.empty()) {
        bsonraw::append(filter, field.data(), int(field.size()),
                        bsonraw::fromDocumentId(version.raw));
        return;
    }
    bson_t cond, values;
    bson_append_document_begin(filter, field.data(), int(field.size()), &cond);
    if (version.versionValues.empty()) {
        BSON_APPEND_BOOL(&cond, "$exists", false);
    } else {
        bson_append_array_begin(&cond, "$nin", -1, &values);
        for (std::size_t i = 0; i < version.versionValues.size(); ++i)
            bsonraw::append(&values, std::to_string(i).c_str(), -1,
                            bsonraw::fromDocumentId(version.versionValues[i]));
        bson_append_array_end(&cond, &values);
    }
    bson_append_document_end(filter, &cond);
}

// {path: {op: {$type: alias}}} or {path: {$type: alias}}; {path: {$exists: true}}; after the
// version's condition for a flag of one version's documents.
BsonDocument condition(const ShapeFlag &flag)
{
    const std::string &path = flag.path;
    const ShapeFlag::Kind kind = flag.kind;
    const QString &type = flag.type;
    BsonDocument filter;
    if (flag.version)
        versionCondition(filter.get(), *flag.version);
    bson_t cond, inner;
    bson_append_document_begin(filter.get(), path.data(), int(path.size()), &cond);
    const QByteArray alias = type.toUtf8();
    switch (kind) {
    case ShapeFlag::Kind::RareField:
        BSON_APPEND_BOOL(&cond, "$exists", true);
        break;
    case ShapeFlag::Kind::MixedTypes:
        bson_append_utf8(&cond, "$type", -1, alias.constData(), int(alias.size()));
        break;
    default: // MixedElementTypes
        BSON_APPEND_DOCUMENT_BEGIN(&cond, "$elemMatch", &inner);
        bson_append_utf8(&inner, "$type", -1, alias.constData(), int(alias.size()));
        bson_append_document_end(&cond, &inner);
        break;
    }
    bson_append_document_end(filter.get(), &cond);
    return filter;
}

} // namespace

bool ShapeQuery::nameable(const std::string &path)
{
    if (path.empty())
        return false;
    std::string_view rest(path);
    while (true) {
        const std::size_t dot = rest.find('.');
        const std::string_view segment = rest.substr(0, dot);
        if (segment.empty() || segment.front() == '$' || PathSegment::standsForManyKeys(segment))
            return false;
        if (dot == std::string_view::npos)
            return true;
        rest.remove_prefix(dot + 1);
    }
}

ShapeQuery ShapeQuery::of(const ShapeFlag &flag)
{
    using Kind = ShapeFlag::Kind;
    const bool byPath = flag.kind == Kind::RareField || flag.kind == Kind::MixedTypes ||
                        flag.kind == Kind::MixedElementTypes;
    const bool versionNameable = !flag.version || nameable(flag.version->field);
    if (byPath && nameable(flag.path) && versionNameable &&
        (flag.kind == Kind::RareField || !flag.type.isEmpty()))
        return {relaxed(condition(flag).get()), Reach::Every};

    BsonDocument filter;
    bson_t cond, ids;
    BSON_APPEND_DOCUMENT_BEGIN(filter.get(), "_id", &cond);
    BSON_APPEND_ARRAY_BEGIN(&cond, "$in", &ids);
    int n = 0;
    for (const ShapeFlag::Example &e : flag.examples) {
        if (e.rawId.empty())
            continue;
        const std::string key = std::to_string(n);
        if (bsonraw::append(&ids, key.c_str(), int(key.size()), bsonraw::fromDocumentId(e.rawId)))
            ++n;
    }
    bson_append_array_end(&cond, &ids);
    bson_append_document_end(filter.get(), &cond);
    if (n == 0)
        return {};
    return {relaxed(filter.get()), Reach::Examples};
}

} // namespace oe
