#pragma once

#include "mongo/ConnectionSettings.h"
#include "mongo/LiveQuery.h"
#include "source/DocumentSource.h"

#include <memory>
#include <string>
#include <vector>

namespace oe {

class MongoConnection;

// Documents from a live collection through libmongoc. Full scans and limits use find;
// samples use the server's $sample stage (with allowDiskUse when the sample is 5% or more of
// the collection, where $sample stops using a random cursor and sorts instead) or, where the
// server lacks $sample, a uniform reservoir sample over a scan. Reads honour the URI's read
// preference (secondaryPreferred by default) and maxTimeMS.
class LiveCollectionSource : public DocumentSource
{
public:
    LiveCollectionSource(ConnectionSettings settings, LiveQuery query);
    ~LiveCollectionSource() override;

    QString displayName() const override;
    bool open(SourceError *error) override;
    ReadResult read(DocumentBatch &batch, std::size_t targetBytes, SourceError *error) override;
    bool rewind(SourceError *error) override;
    std::optional<std::uint64_t> estimatedDocuments() const override { return m_estimated; }
    std::uint64_t bytesConsumed() const override { return m_consumed; }
    bool samplesItself() const override
    {
        return m_query.selection.mode == DocumentSelection::Mode::Sample;
    }
    bool guaranteesUniqueIds() const override { return true; }
    // Two of the server's largest replies (16 MB each): while the workers walk one, the next
    // is already on its way.
    std::size_t readAheadBytes() const override { return std::size_t(32) << 20; }
    QString modeDescription() const override { return m_modeDescription; }

    // The collection's document count as open() read it (collStats), or as the query knew it.
    std::optional<std::uint64_t> collectionCount() const { return m_collectionCount; }
    // The server cursor's id (for diagnostics and tests), 0 when none is open.
    std::int64_t cursorId() const;

private:
    struct Cursor;
    void startCursor();
    bool fillReservoir(SourceError *error);
    SourceError cursorError(const QString &step) const;
    bool secondLook(DocumentBatch &batch, SourceError *error);

    ConnectionSettings m_settings;
    LiveQuery m_query;
    std::unique_ptr<MongoConnection> m_connection;
    std::unique_ptr<Cursor> m_cursor;
    std::optional<std::uint64_t> m_estimated;
    std::optional<std::uint64_t> m_collectionCount;
    std::uint64_t m_consumed = 0;
    std::uint64_t m_nextIndex = 0;
    QString m_modeDescription;
    QString m_step;
    bool m_useReservoir = false;
    bool m_exhausted = false;
    std::vector<std::string> m_reservoir;
    std::size_t m_reservoirNext = 0;
};

} // namespace oe
