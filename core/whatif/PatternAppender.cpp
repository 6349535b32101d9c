#include "PatternAppender.h"

#include "BsonDocument.h"

#include <bson/bson.h>

#include <string>

namespace oe {

namespace {

void appendElement(bson_t *d, const char *key, const QByteArray &element)
{
    bson_t view;
    if (bson_init_static(&view, reinterpret_cast<const std::uint8_t *>(element.constData()),
                         std::size_t(element.size())))
        bson_append_document(d, key, -1, &view);
}

// {$push: {items: element}}
QByteArray pushItem(const QByteArray &element)
{
    BsonDocument update;
    bson_t push;
    BSON_APPEND_DOCUMENT_BEGIN(update.get(), "$push", &push);
    appendElement(&push, "items", element);
    bson_append_document_end(update.get(), &push);
    return update.bytes();
}

void appendNotExists(bson_t *d, const std::string &key)
{
    bson_t cond;
    bson_append_document_begin(d, key.c_str(), -1, &cond);
    BSON_APPEND_BOOL(&cond, "$exists", false);
    bson_append_document_end(d, &cond);
}

} // namespace

bool PatternAppender::pushToPage(std::int64_t id, std::int64_t page, const QByteArray &element,
                                 bool upsert, WhatIfCalls::Update *result, SourceError *error)
{
    BsonDocument filter;
    BSON_APPEND_INT64(filter.get(), "parent_id", id);
    BSON_APPEND_INT64(filter.get(), "page", page);
    appendNotExists(filter.get(), "items." + std::to_string(m_pageSize - 1));
    return m_calls.updateOne(m_pages, filter.bytes(), pushItem(element), upsert, result, error);
}

bool PatternAppender::append(std::int64_t id, const QByteArray &element, SourceError *error)
{
    WhatIfCalls::Update r;
    if (m_keep > 0) { // into the document while it is not flagged and has room
        BsonDocument filter;
        BSON_APPEND_INT64(filter.get(), "_id", id);
        bson_t ne;
        BSON_APPEND_DOCUMENT_BEGIN(filter.get(), "has_extras", &ne);
        BSON_APPEND_BOOL(&ne, "$ne", true);
        bson_append_document_end(filter.get(), &ne);
        appendNotExists(filter.get(), "items." + std::to_string(m_keep - 1));
        if (!m_calls.updateOne(m_collection, filter.bytes(), pushItem(element), false, &r, error))
            return false;
        if (r.matched == 1)
            return true;
    }
    for (;;) { // else into the last page, opening the next when it is full
        BsonDocument byParent, newestFirst, pageOnly;
        BSON_APPEND_INT64(byParent.get(), "parent_id", id);
        BSON_APPEND_INT32(newestFirst.get(), "page", -1);
        BSON_APPEND_INT32(pageOnly.get(), "page", 1);
        QByteArray last;
        if (!m_calls.findOne(m_pages, byParent.bytes(), newestFirst.bytes(), pageOnly.bytes(),
                             &last, error))
            return false;
        std::int64_t page = 0;
        bson_t doc;
        bson_iter_t it;
        if (!last.isEmpty() &&
            bson_init_static(&doc, reinterpret_cast<const std::uint8_t *>(last.constData()),
                             std::size_t(last.size())) &&
            bson_iter_init_find(&it, &doc, "page"))
            page = bson_iter_as_int64(&it);
        if (!pushToPage(id, page, element, last.isEmpty(), &r, error))
            return false;
        if (!r.duplicateKey && r.matched == 0 && !r.upserted &&
            !pushToPage(id, ++page, element, true, &r, error))
            return false;
        if (r.duplicateKey)
            continue; // another writer opened that page first
        BsonDocument counters;
        bson_t set, inc, max;
        BSON_APPEND_DOCUMENT_BEGIN(counters.get(), "$set", &set);
        BSON_APPEND_BOOL(&set, "has_extras", true);
        bson_append_document_end(counters.get(), &set);
        BSON_APPEND_DOCUMENT_BEGIN(counters.get(), "$inc", &inc);
        BSON_APPEND_INT64(&inc, "count", r.upserted && page == 0 ? m_keep + 1 : 1);
        bson_append_document_end(counters.get(), &inc);
        BSON_APPEND_DOCUMENT_BEGIN(counters.get(), "$max", &max);
        BSON_APPEND_INT64(&max, "pages", page + 1);
        bson_append_document_end(counters.get(), &max);
        BsonDocument byId;
        BSON_APPEND_INT64(byId.get(), "_id", id);
        return m_calls.updateOne(m_collection, byId.bytes(), counters.bytes(), false, &r, error);
    }
}

} // namespace oe
