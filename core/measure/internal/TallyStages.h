#pragma once

// Internal to core/measure: the stages TallyPipelines' aggregations share (TallyPipelines.cpp,
// TallyPipelinesShape.cpp, TallyStages.cpp).

#include "bson/internal/BsonDocument.h"
#include "measure/ShapePlan.h"
#include "measure/TallyPipelines.h"
#include "measure/internal/ExpressionJson.h"

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace oe::tallystages {

using namespace expr;

inline BsonDocument fromJson(const O &object)
{
    return expr::toDocument(object);
}

inline std::int64_t clamped(std::uint64_t n)
{
    return n > std::uint64_t(std::numeric_limits<std::int64_t>::max())
               ? std::numeric_limits<std::int64_t>::max()
               : std::int64_t(n);
}

// A pipeline under construction: {pipeline: [stage, ...]}.
class Pipeline
{
public:
    Pipeline() { BSON_APPEND_ARRAY_BEGIN(m_doc.get(), "pipeline", &m_stages); }
    // Appends {name: body}.
    void stage(const char *name, const bson_t *body)
    {
        bson_t stage;
        begin(&stage);
        bson_append_document(&stage, name, -1, body);
        bson_append_document_end(&m_stages, &stage);
    }
    void stage(const char *name, const O &body) { stage(name, fromJson(body).get()); }
    void stageBytes(const char *name, const QByteArray &body)
    {
        if (const auto doc = BsonDocument::fromBytes(body))
            stage(name, doc->get());
    }
    void stageNumber(const char *name, std::uint64_t n)
    {
        bson_t stage;
        begin(&stage);
        BSON_APPEND_INT64(&stage, name, clamped(n));
        bson_append_document_end(&m_stages, &stage);
    }
    void stageText(const char *name, const char *text)
    {
        bson_t stage;
        begin(&stage);
        BSON_APPEND_UTF8(&stage, name, text);
        bson_append_document_end(&m_stages, &stage);
    }
    QByteArray finish()
    {
        bson_append_array_end(m_doc.get(), &m_stages);
        return m_doc.bytes();
    }

private:
    void begin(bson_t *stage)
    {
        const std::string key = std::to_string(m_count++);
        bson_append_document_begin(&m_stages, key.c_str(), -1, stage);
    }
    BsonDocument m_doc;
    bson_t m_stages;
    int m_count = 0;
};

// The scope: the filter, the limit, and (`schema`) the regular documents only (the scope's own
// filter for them, else its schema).
inline void scope(Pipeline &p, const TallyPipelines::Scope &s, bool schema)
{
    if (!s.filter.isEmpty())
        p.stageBytes("$match", s.filter);
    if (s.limit)
        p.stageNumber("$limit", *s.limit);
    if (schema && !s.regular.isEmpty())
        p.stageBytes("$match", s.regular);
    else if (schema && !s.schema.isEmpty())
        p.stageBytes("$match", s.schema);
}

// One fenced list: the field its values are in, and its fence.
struct Listed
{
    QByteArray field;
    TallyPipelines::Fence fence;
};

// {$type: path}.
J typeAt(const ShapePlan::Path &p);
// Where the figures read a one-type field of arrays' objects: the values its path gathers over
// the elements, walked inline in each figure, or once by a stage before them into a field of
// its own (gatheredFields: `g<i>` for path i), which the figures then read.
enum class Gathering : std::uint8_t
{
    Inline,
    Hoisted
};
// {g<i>: the values path i gathers} for each one-type field of arrays' objects.
O gatheredFields(const ShapePlan &shape);
// The bytes the strings and binaries at path i hold past empty ones (in an array of objects'
// elements: summed over them).
J extraBytes(const ShapePlan &shape, std::size_t i, Gathering gathering = Gathering::Inline);
// The shape tallies' key figures (TallyPipelines::tallies): `k`, each path's $type ("missing"
// for a field of arrays' elements), then per array of objects whether it has elements
// ("object") or not ("missing"); `v`, the version fields' values (null for one no version
// has); `c`, per mixed array its elements of each type; `o`, per field of arrays' elements the
// elements holding it per type. Each in ShapePlan's orders; empty where the shape has none.
A shapeTypes(const ShapePlan &shape, Gathering gathering = Gathering::Inline);
A versionValues(const ShapePlan &shape);
A mixedCounts(const ShapePlan &shape);
A elementFieldCounts(const ShapePlan &shape, Gathering gathering = Gathering::Inline);
// A regular document's figures for the shape's tails ({fc, dp, k<i>}: TallyPipelines).
J shapeValues(const ShapePlan &shape);
// The field a tail's values are in: s, l, v<i> (tailField); fc, dp, k<i> (shapeField); and as a
// candidates' list names it (h.<shapeField> for the shape's).
QString tailField(int id);
QString shapeField(int tail);
QByteArray listedField(int tail, bool shaped);
// The fenced lists of candidates (see TallyPipelines' header), appended to `p`.
QByteArray fenced(Pipeline &p, const std::vector<Listed> &fences,
                  const std::vector<std::int64_t> &recordIds);
std::vector<Listed> named(const std::vector<TallyPipelines::Fence> &fences);

} // namespace oe::tallystages
