#pragma once

#include <QList>
#include <QString>

namespace oe {

// What `whatif` measures: for each size, a $push to a document already holding that many
// elements, unbounded, against the outlier pattern's write path on the split layout (keep and
// page size as the seed texts' book example), `ops` times each.
struct WhatIfOptions
{
    QList<int> sizes{100, 1000, 5000, 10000};
    int elementBytes = 100; // BSON bytes per array element
    int ops = 100;          // appends timed per size and layout
    int keep = 50;
    int pageSize = 1000;
    QString scratchDatabase; // empty: a new oe_whatif_<n> that does not exist yet
};

} // namespace oe
