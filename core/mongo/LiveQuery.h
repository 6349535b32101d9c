#pragma once

#include "measure/MeasurePlan.h"
#include "source/DocumentSelection.h"
#include "source/SourceError.h"

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>

namespace oe {

// What to read from a live collection.
struct LiveQuery
{
    QString database;
    QString collection;
    QString filter;              // extended JSON (canonical or relaxed); empty = every document
    DocumentSelection selection; // a sample's seed also drives the client-side reservoir
    qint64 maxTimeMs = 0;        // server-side time limit per operation; 0 = none
    int batchSize = 0;           // cursor batch size; 0 = the driver's
    // Range scans: an `_id` condition (BSON document bytes) ANDed with the filter, and the
    // documents in `_id` order (full scans only).
    QByteArray idCondition;
    bool sortById = false;
    // A projection (BSON document bytes) the server applies to each document before sending
    // it: a find's `projection`, a $project stage after $sample. Empty: whole documents.
    QByteArray projection;
    // With a server-side measurement's projection: its plan, so a document whose figures it
    // does not explain is read whole (UnexplainedReader) before the batch leaves the source.
    std::shared_ptr<const MeasurePlan> measurePlan;
    // With it, the documents read whole whatever their figures say (UnseenFieldFinder: they
    // hold a top-level field the discovery sample did not see), by DocumentId::raw's form.
    std::shared_ptr<const std::unordered_set<std::string>> unseenIds;
    // Whether open() first asks whether the collection exists (listCollections: a round
    // trip). A read a scan of the same collection follows at once (the discovery read of a
    // server-side measurement) leaves that to the scan: a collection that is not there gives
    // it no documents, and the scan says why. (Its size is still read: it decides whether a
    // sample may spill to disk.)
    bool checksExistence = true;
    // The collection's document count, where the caller read it moments before (the discovery
    // read of a server-side measurement, from collStats): open() does not ask again.
    std::optional<std::uint64_t> knownCount;
    // Where the server refuses $sample, a sample is drawn on the client from a scan of every
    // document. False: the refusal is the read's error (a read that only tries the server).
    bool samplesOnClient = true;

    QString ns() const { return database + QLatin1Char('.') + collection; }
    // Empty when `filter` is a valid extended JSON document, else the problem in one line.
    static QString validateFilter(const QString &filter);
    // When a query with the user's `filter` failed because the server refused the query itself
    // (an unknown operator, $where where it is not allowed, a malformed expression), the filter
    // is at fault: `error` becomes a usage error naming --filter. Other errors are left alone.
    static void blameFilter(const QString &filter, SourceError *error);
};

} // namespace oe
