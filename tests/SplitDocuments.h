#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <map>
#include <vector>

// Reading a split back for live tests, independently of the tool: a dump's documents, each
// document's array reassembled from its primary and its overflow pages, and how two arrays differ.
namespace fixtures {

// The documents of a .bson dump in file order (the order a collection scan returns them after
// import); empty if it cannot be read.
std::vector<QByteArray> dumpDocuments(const QString &path);
// Per document of `collection`: its `field` elements followed by its pages' items (the pages of
// `collection`_overflow, linked by parent_id, numbered by page). A duplicate or missing page
// number ends the test run (qFatal): the layout itself is broken.
std::map<QByteArray, QList<QByteArray>> reassembled(const QString &uri, const QString &database,
                                                    const QString &collection,
                                                    const QString &field);
// How a document's elements differ from the expected ones, in words (strings shown as text).
QString elementDifference(const QByteArray &id, const QList<QByteArray> &actual,
                          const QList<QByteArray> &expected);

} // namespace fixtures
