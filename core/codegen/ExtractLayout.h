#pragma once

#include <QString>
#include <QStringList>

namespace oe {

// The names an extraction (the subset pattern) leaves, resolved (no defaults left to apply):
// what its generated read and write paths need. RewriteConfig::extractLayout() makes one.
struct ExtractLayout
{
    QString collection;
    QString path; // dot notation, through sub-documents
    QString side; // the side collection
    QString leaf; // the value's field in a side document
    QString flag; // the top-level flag of a document whose value moved
    int excerptChars = 0;
    QStringList excerptKeys;
};

} // namespace oe
