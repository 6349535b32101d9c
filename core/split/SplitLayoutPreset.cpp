#include "split/SplitLayoutPreset.h"

namespace oe::splitlayout {

QList<SplitLayoutPreset> all()
{
    return {SplitLayoutPreset::Default, SplitLayoutPreset::BookSales,
            SplitLayoutPreset::ActivityFeed, SplitLayoutPreset::ViralPost};
}

QString name(SplitLayoutPreset preset)
{
    switch (preset) {
    case SplitLayoutPreset::Default:
        return QStringLiteral("default");
    case SplitLayoutPreset::BookSales:
        return QStringLiteral("book-sales");
    case SplitLayoutPreset::ActivityFeed:
        return QStringLiteral("activity-feed");
    case SplitLayoutPreset::ViralPost:
        return QStringLiteral("viral-post");
    }
    return {};
}

QStringList names()
{
    QStringList out;
    for (SplitLayoutPreset p : all())
        out << name(p);
    return out;
}

std::optional<SplitLayoutPreset> parse(const QString &text)
{
    for (SplitLayoutPreset p : all())
        if (name(p) == text)
            return p;
    return std::nullopt;
}

QString label(SplitLayoutPreset preset)
{
    switch (preset) {
    case SplitLayoutPreset::Default:
        return QStringLiteral("Default (<collection>_overflow, parent_id, has_extras)");
    case SplitLayoutPreset::BookSales:
        return QStringLiteral("Book sales (keep 50, extra_sales, book_id, has_extras)");
    case SplitLayoutPreset::ActivityFeed:
        return QStringLiteral("Activity feed (pages of 1,000, userId, hasOverflow)");
    case SplitLayoutPreset::ViralPost:
        return QStringLiteral("Viral post (keep 0, post_id, outlier: true)");
    }
    return {};
}

QString description(SplitLayoutPreset preset)
{
    switch (preset) {
    case SplitLayoutPreset::Default:
        return QStringLiteral("The product's defaults: pages linked by parent_id and numbered by "
                              "page, the flag has_extras.");
    case SplitLayoutPreset::BookSales:
        return QStringLiteral("MongoDB's outlier pattern tutorial: the first 50 customers stay in "
                              "the book, the rest go to extra_sales under book_id.");
    case SplitLayoutPreset::ActivityFeed:
        return QStringLiteral("The activity feed article: 1,000 activities per document and per "
                              "overflow page, hasOverflow, activityCount and overflowPages kept "
                              "on the user.");
    case SplitLayoutPreset::ViralPost:
        return QStringLiteral("The viral post example: every comment of an outlier moves out, the "
                              "post keeps outlier: true and reads its comments by post_id.");
    }
    return {};
}

SplitConfig apply(SplitLayoutPreset preset, const SplitConfig &base)
{
    SplitConfig c = base;
    c.overflowCollection.clear();
    c.itemsField.clear();
    c.countField.clear();
    c.pagesField.clear();
    c.linkField = QStringLiteral("parent_id");
    c.pageField = QStringLiteral("page");
    c.flagField = QStringLiteral("has_extras");
    switch (preset) {
    case SplitLayoutPreset::Default:
        break;
    case SplitLayoutPreset::BookSales:
        c.keep = 50;
        c.overflowCollection = QStringLiteral("extra_sales");
        c.linkField = QStringLiteral("book_id");
        c.itemsField = QStringLiteral("customers_purchased_extra");
        break;
    case SplitLayoutPreset::ActivityFeed:
        c.keep = 1000;
        c.pageSize = 1000;
        c.linkField = QStringLiteral("userId");
        c.flagField = QStringLiteral("hasOverflow");
        c.countField = QStringLiteral("activityCount");
        c.pagesField = QStringLiteral("overflowPages");
        break;
    case SplitLayoutPreset::ViralPost:
        c.keep = 0;
        if (!c.collection.isEmpty())
            c.overflowCollection = c.collection + QStringLiteral("_comments");
        c.linkField = QStringLiteral("post_id");
        c.flagField = QStringLiteral("outlier");
        break;
    }
    return c.withDefaults();
}

} // namespace oe::splitlayout
