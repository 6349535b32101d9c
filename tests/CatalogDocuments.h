#pragma once

#include <QByteArray>
#include <QList>

// A product catalogue in the attribute pattern's case (issue 39): `products` documents
// {_id: i, name, price: double, category}, each with `perProduct` of 300 sparse top-level
// attributes (attr_000 … attr_299; by number: a string, a double, an int or a bool), picked
// deterministically, so each attribute is in about products × perProduct / 300 documents.
namespace fixtures {

QList<QByteArray> catalogDocuments(int products = 2000, int perProduct = 7);

} // namespace fixtures
