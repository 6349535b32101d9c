#pragma once

// The outlier pattern's write path in C++ (the algorithm `codegen` writes for each language):
// appends one element to a document's array wherever it belongs.
//
// Slot counter (mongod 4.2+): one findAndModify with an update pipeline pushes the element
// into the document while it has room (fewer than `keep` elements and no flag), and otherwise
// reserves the next overflow slot by incrementing the count field, setting the flag and the
// page count in the same atomic write; the reply names the slot, and a second round trip
// pushes the element to the page the slot falls in (opening it by upsert). Two round trips once
// a document has overflowed, one while it has room; race-free under concurrent writers, since
// every slot is handed out once by the server. A document that is not flagged but already holds
// more than `keep` elements (an outlier the split has not reached yet) keeps growing in place,
// so the split's guarded trim sees the change and redoes it.
//
// Legacy (servers without pipeline updates: FerretDB, older DocumentDB): a guarded push, then
// the last page found, pushed to (or the next opened), then the flag and counters set: four
// round trips, and a server that applies updates non-atomically can lose a concurrent append.
// Chosen automatically when the server refuses the pipeline, and said by warning().
//
// One appender per thread: it runs on the caller's connection.

#include "mongo/MongoConnection.h"
#include "source/SourceError.h"
#include "split/SplitConfig.h"

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <memory>

namespace oe {

class WhatIfCalls;

class OverflowAppender
{
public:
    enum class Protocol
    {
        SlotCounter,
        Legacy
    };
    enum class Path
    {
        Document, // pushed into the document itself
        Page,     // into an overflow page that already held elements
        NewPage   // opened an overflow page
    };

    // `config` names the layout (withDefaults() applied); its count field is the slot counter,
    // required.
    OverflowAppender(MongoConnection &connection, QString database, const SplitConfig &config);
    ~OverflowAppender();
    OverflowAppender(const OverflowAppender &) = delete;
    OverflowAppender &operator=(const OverflowAppender &) = delete;

    // Appends `element` (a raw BSON value: type byte + value) to the array of the document
    // whose _id is `idValue` (a raw value). False with `error` set when the server refused a
    // write or there is no such document.
    bool append(const QByteArray &idValue, const QByteArray &element, Path *path,
                SourceError *error);

    // The slot counter's two round trips apart (append() is reserve() then complete()): the
    // first takes the element into the document or reserves its overflow slot; the second puts
    // it on its page. Tests use the gap to stand for an application between the two.
    struct Reservation
    {
        QByteArray idValue, element;
        bool overflowed = false; // false: it went into the document, nothing left to do
        std::int64_t slot = 0;   // its position among the overflow elements
    };
    // Refused (a usage error) on the legacy protocol, which takes no slot.
    bool reserve(const QByteArray &idValue, const QByteArray &element, Reservation *reservation,
                 SourceError *error);
    bool complete(const Reservation &reservation, Path *path, SourceError *error);

    Protocol protocol() const { return m_protocol; }
    // Empty, or why the legacy protocol is in use.
    QString warning() const { return m_warning; }
    // Forces a protocol (tests, and a caller that already knows its server).
    void setProtocol(Protocol protocol) { m_protocol = protocol; }

private:
    bool probe(SourceError *error);
    bool takeSlot(const QByteArray &idValue, const QByteArray &element, bool *overflowed,
                  std::int64_t *slot, SourceError *error);
    bool pushToPage(const QByteArray &idValue, std::int64_t page, const QByteArray &element,
                    bool upsert, bool *matched, bool *duplicate, SourceError *error);
    bool appendLegacy(const QByteArray &idValue, const QByteArray &element, Path *path,
                      SourceError *error);
    // The legacy path's steps.
    struct LastPage
    {
        bool none = true;      // the document has no overflow page yet
        std::int64_t page = 0; // the last page's number
        std::int64_t held = 0; // and how many elements it holds
    };
    bool pushIntoDocument(const QByteArray &idValue, const QByteArray &element, bool *pushed,
                          SourceError *error);
    bool findLastPage(const QByteArray &idValue, LastPage *lastPage, SourceError *error);
    bool raiseCounters(const QByteArray &idValue, bool first, bool noPageYet, std::int64_t pages,
                       SourceError *error);

    std::unique_ptr<WhatIfCalls> m_calls;
    SplitConfig m_config;
    Protocol m_protocol = Protocol::SlotCounter;
    bool m_probed = false;
    QString m_warning;
};

} // namespace oe
