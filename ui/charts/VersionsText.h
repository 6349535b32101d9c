#pragma once

#include "shape/SchemaVersions.h"

#include <QString>

namespace oe {

// Schema versions in words, as the Shape tab and the HTML/PDF report say them.
class VersionsText
{
public:
    // "1 50.0 % (500) · 2 9.2 % (92) · (none) 40.0 % (400)"
    static QString shares(const SchemaVersions &versions);
    // "Over 2 analyses since <date>: 1 50.0 % → 80.0 %; ...": each version's share, oldest first.
    static QString history(const SchemaVersions &versions);
};

} // namespace oe
