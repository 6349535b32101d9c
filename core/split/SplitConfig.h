#pragma once

#include <QString>
#include <QStringList>

#include <cstdint>

namespace oe {

// How to apply the outlier pattern to one array field: keep the first `keep` elements in the
// document, flag it, and move the rest into pages of `pageSize` in an overflow collection.
struct SplitConfig
{
    QString collection;    // source collection (for dumps: the file's base name)
    QString field;         // the array, in dot notation: "activities", "stats.history"
    std::int64_t keep = 0; // elements left in the primary (0 moves them all)
    std::int64_t pageSize = 1000;
    QString overflowCollection; // default <collection>_overflow
    QString linkField = QStringLiteral("parent_id");
    QString pageField = QStringLiteral("page");
    QString itemsField; // default: the array's own name
    QString flagField = QStringLiteral("has_extras");
    // Total length, like activityCount; default <field>_count (dots as underscores). The
    // write path reserves overflow slots with it, so a split always writes it.
    QString countField;
    QString pagesField; // optional: number of pages, like overflowPages
    QString filter;     // optional extended JSON: only these documents
    // Set by the preflight from the cluster, never by the user: the fields of the collection's
    // shard key when it is sharded, which every guarded update filter names (mongos routes an
    // update by them).
    QStringList shardKey;
    // Schema drift: a document whose field is missing or not an array is left as it is and
    // counted as skipped; strict refuses the whole split instead. Not part of the journaled
    // layout: it decides what a run accepts, not where elements go.
    bool strict = false;

    // Fills the defaults that depend on other fields (overflow name, items field, count field).
    SplitConfig withDefaults() const;
    // Empty when the configuration is usable, else every problem, one per entry.
    QStringList problems() const;
    // The journal of a collection's migrations: <collection> + journalSuffix().
    static QString journalSuffix() { return QStringLiteral("_outlier_migrations"); }
    static bool isJournal(const QString &collectionName)
    {
        return collectionName.endsWith(journalSuffix());
    }
    QString journalCollection() const { return collection + journalSuffix(); }
    QStringList pathSegments() const { return field.split(QLatin1Char('.')); }
};

} // namespace oe
