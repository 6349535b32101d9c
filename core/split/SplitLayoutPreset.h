#pragma once

#include "split/SplitConfig.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace oe {

// The layouts of the outlier pattern as the seed texts write them, for the migration wizard:
// a starting point the user edits, never a hidden rule. Each fills the layout names (and keep
// and page size where the text fixes them) of a SplitConfig and leaves its collection and field.
enum class SplitLayoutPreset
{
    Default,      // <collection>_overflow, parent_id/page, has_extras
    BookSales,    // keep 50; extra_sales, book_id, customers_purchased_extra, has_extras
    ActivityFeed, // pages of 1,000; userId/page, hasOverflow, activityCount, overflowPages
    ViralPost,    // keep 0 (every comment moves); <collection>_comments, post_id, outlier
};

namespace splitlayout {

QList<SplitLayoutPreset> all();
QString name(SplitLayoutPreset preset); // "default", "book-sales", "activity-feed", "viral-post"
QStringList names();
std::optional<SplitLayoutPreset> parse(const QString &name);
QString label(SplitLayoutPreset preset);       // "Book sales (keep 50, has_extras)"
QString description(SplitLayoutPreset preset); // where it comes from, in a sentence
SplitConfig apply(SplitLayoutPreset preset, const SplitConfig &base);

} // namespace splitlayout

} // namespace oe
