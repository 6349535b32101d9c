#pragma once

// Internal to core: where an extraction keeps the values it moves out of their documents (a
// side collection, or a GridFS bucket). A value is stored before its document is changed and
// taken away where the document kept it or got it back.

#include "remedy/internal/RewriteJournal.h"
#include "source/SourceError.h"

#include <QByteArray>
#include <QStringList>

#include <map>
#include <optional>
#include <vector>

namespace oe {

class SideStore
{
public:
    virtual ~SideStore() = default;

    // Each entry's before stored (replacing what the store held for it).
    virtual bool put(const std::vector<RewriteEntry> &entries, SourceError *error) = 0;
    virtual bool remove(const std::vector<RewriteEntry> &entries, SourceError *error) = 0;
    // The raw value the store holds for each entry (by its document's _id; nullopt: none).
    virtual bool stored(const std::vector<RewriteEntry> &entries,
                        std::map<QByteArray, std::optional<QByteArray>> *values,
                        SourceError *error) = 0;
    // Whether a new run may use the store (a side collection: empty); false with `error` set.
    virtual bool isFree(SourceError *error) = 0;
    // The values this rewrite's runs left in the store (after a rollback: those the
    // application's documents still point to); -1 with `error` set.
    virtual std::int64_t held(SourceError *error) = 0;
    // A finished run forgotten: the store removed where it is this rewrite's alone and holds
    // nothing (a side collection); a shared one (a GridFS bucket) stays. Says what it did.
    virtual bool tidy(QStringList *notes, SourceError *error) = 0;
    // Whether --forget drops the store once it holds nothing (a side collection: this
    // rewrite's alone), said after a rollback.
    virtual bool dropsWhenEmpty() const { return false; }
};

} // namespace oe
