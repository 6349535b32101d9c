#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

// A product catalogue in the attribute pattern's case (issue 39): `products` documents
// {_id: i, name, price: double, category}, each with `perProduct` of 300 sparse top-level
// attributes (attr_000 … attr_299; by number: a string, a double, an int or a bool), picked
// deterministically, so each attribute is in about products × perProduct / 300 documents.
namespace fixtures {

QList<QByteArray> catalogDocuments(int products = 2000, int perProduct = 7);

// The live tests' catalogue, as extended JSON documents to insert: `products` documents
// {_id: i, name, <four attributes>, price: int, <two attributes>, tail: {stock}}, of
// kCatalogueFields attributes (catalogueField(k); one in Cyrillic), six distinct ones a product,
// each attribute in 6 % of the products; typed by number as catalogDocuments' are.
constexpr int kCatalogueFields = 100;
QString catalogueField(int k);
QStringList catalogueFields(); // all of them, by number
// The attributes of product `i`, in its order.
QStringList catalogueFieldsOf(int i);
QStringList catalogueJson(int products);

} // namespace fixtures
