#pragma once

// Internal to core: the outlier pattern's write path in C++ (the algorithm `codegen` writes
// for each language), for the what-if benchmark: the fields are items, has_extras, count and
// pages on the parent; parent_id, page and items on the pages.

#include "WhatIfCalls.h"

namespace oe {

class PatternAppender
{
public:
    PatternAppender(WhatIfCalls &calls, QString collection, QString pages, int keep, int pageSize)
        : m_calls(calls), m_collection(std::move(collection)), m_pages(std::move(pages)),
          m_keep(keep), m_pageSize(pageSize)
    {
    }
    // Appends `element` (a BSON document's bytes) to document `id`'s array wherever it belongs.
    bool append(std::int64_t id, const QByteArray &element, SourceError *error);

private:
    bool pushToPage(std::int64_t id, std::int64_t page, const QByteArray &element, bool upsert,
                    WhatIfCalls::Update *result, SourceError *error);

    WhatIfCalls &m_calls;
    QString m_collection, m_pages;
    int m_keep, m_pageSize;
};

} // namespace oe
