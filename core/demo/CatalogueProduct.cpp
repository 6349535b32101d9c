#include "demo/CatalogueProduct.h"

#include <string>

namespace oe::demo {

namespace {

enum class Kind
{
    Text,
    Number,
    Count,
    Flag
};

struct Attribute
{
    const char *name;
    Kind kind;
};

struct Category
{
    const char *name;
    Attribute attributes[15];
};

const Category kCategories[] = {
    {"electronics",
     {{"voltage", Kind::Count},
      {"wattage", Kind::Count},
      {"screen_size", Kind::Number},
      {"resolution", Kind::Text},
      {"battery_mah", Kind::Count},
      {"bluetooth", Kind::Flag},
      {"wifi", Kind::Flag},
      {"ports", Kind::Count},
      {"processor", Kind::Text},
      {"ram_gb", Kind::Count},
      {"storage_gb", Kind::Count},
      {"refresh_hz", Kind::Count},
      {"panel", Kind::Text},
      {"weight_kg", Kind::Number},
      {"warranty_years", Kind::Count}}},
    {"books",
     {{"isbn", Kind::Text},
      {"pages", Kind::Count},
      {"author", Kind::Text},
      {"publisher", Kind::Text},
      {"edition", Kind::Count},
      {"language", Kind::Text},
      {"hardcover", Kind::Flag},
      {"illustrated", Kind::Flag},
      {"series", Kind::Text},
      {"translator", Kind::Text},
      {"reading_age", Kind::Count},
      {"dimensions_cm", Kind::Text},
      {"first_published", Kind::Count},
      {"audiobook", Kind::Flag},
      {"rating", Kind::Number}}},
    {"clothing",
     {{"size", Kind::Text},
      {"fabric", Kind::Text},
      {"fit", Kind::Text},
      {"sleeve", Kind::Text},
      {"collar", Kind::Text},
      {"waterproof", Kind::Flag},
      {"machine_washable", Kind::Flag},
      {"inseam_cm", Kind::Number},
      {"chest_cm", Kind::Number},
      {"gender", Kind::Text},
      {"season", Kind::Text},
      {"pattern_print", Kind::Text},
      {"pockets", Kind::Count},
      {"lining", Kind::Flag},
      {"closure", Kind::Text}}},
    {"kitchen",
     {{"capacity_l", Kind::Number},
      {"dishwasher_safe", Kind::Flag},
      {"induction", Kind::Flag},
      {"diameter_cm", Kind::Number},
      {"coating", Kind::Text},
      {"lid", Kind::Flag},
      {"pieces", Kind::Count},
      {"power_w", Kind::Count},
      {"speeds", Kind::Count},
      {"blade", Kind::Text},
      {"oven_safe_c", Kind::Count},
      {"handle", Kind::Text},
      {"bpa_free", Kind::Flag},
      {"timer", Kind::Flag},
      {"programs", Kind::Count}}},
    {"garden",
     {{"cutting_width_cm", Kind::Count},
      {"fuel", Kind::Text},
      {"tank_l", Kind::Number},
      {"hose_m", Kind::Count},
      {"frost_hardy", Kind::Flag},
      {"sun", Kind::Text},
      {"height_cm", Kind::Count},
      {"pot_l", Kind::Number},
      {"flowering", Kind::Text},
      {"evergreen", Kind::Flag},
      {"cordless", Kind::Flag},
      {"noise_db", Kind::Count},
      {"area_m2", Kind::Count},
      {"mulching", Kind::Flag},
      {"grass_box_l", Kind::Count}}},
    {"toys",
     {{"age_min", Kind::Count},
      {"players", Kind::Count},
      {"batteries", Kind::Flag},
      {"play_minutes", Kind::Count},
      {"theme", Kind::Text},
      {"bricks", Kind::Count},
      {"remote_control", Kind::Flag},
      {"outdoor", Kind::Flag},
      {"educational", Kind::Flag},
      {"character", Kind::Text},
      {"scale", Kind::Text},
      {"speed_kmh", Kind::Number},
      {"range_m", Kind::Count},
      {"puzzle_pieces", Kind::Count},
      {"plush", Kind::Flag}}},
    {"sports",
     {{"frame_size", Kind::Text},
      {"gears", Kind::Count},
      {"wheel_inch", Kind::Number},
      {"brake", Kind::Text},
      {"suspension", Kind::Text},
      {"weight_class", Kind::Text},
      {"shoe_size_eu", Kind::Number},
      {"drop_mm", Kind::Count},
      {"grip", Kind::Text},
      {"string_tension", Kind::Count},
      {"volume_l", Kind::Count},
      {"insulated", Kind::Flag},
      {"foldable", Kind::Flag},
      {"max_load_kg", Kind::Count},
      {"certified", Kind::Flag}}},
    {"beauty",
     {{"volume_ml", Kind::Count},
      {"skin_type", Kind::Text},
      {"spf", Kind::Count},
      {"fragrance", Kind::Text},
      {"vegan", Kind::Flag},
      {"cruelty_free", Kind::Flag},
      {"shade", Kind::Text},
      {"finish", Kind::Text},
      {"hair_type", Kind::Text},
      {"refillable", Kind::Flag},
      {"organic", Kind::Flag},
      {"ph", Kind::Number},
      {"alcohol_free", Kind::Flag},
      {"applicator", Kind::Text},
      {"shelf_life_months", Kind::Count}}},
};
constexpr std::uint64_t kCategoryCount = sizeof(kCategories) / sizeof(kCategories[0]);
constexpr std::uint64_t kPerProduct = 6;
const char *const kTexts[] = {"standard", "large", "classic", "pro", "eco", "mini", "plus"};

void appendAttribute(bson_t *doc, const Attribute &a, std::uint64_t i, SplitMix64 &rng)
{
    switch (a.kind) {
    case Kind::Text: {
        const std::string text = std::string(kTexts[rng.below(7)]) + " " + std::to_string(i % 97);
        BSON_APPEND_UTF8(doc, a.name, text.c_str());
        break;
    }
    case Kind::Number:
        BSON_APPEND_DOUBLE(doc, a.name, double(rng.below(10000)) / 100.0);
        break;
    case Kind::Count:
        BSON_APPEND_INT32(doc, a.name, std::int32_t(1 + rng.below(2000)));
        break;
    case Kind::Flag:
        BSON_APPEND_BOOL(doc, a.name, rng.below(2) == 0);
        break;
    }
}

} // namespace

void catalogueProduct(bson_t *doc, std::uint64_t i, SplitMix64 &rng)
{
    const Category &category = kCategories[i % kCategoryCount];
    BSON_APPEND_INT32(doc, "_id", std::int32_t(i + 1));
    const std::string name = std::string(category.name) + " item " + std::to_string(i + 1);
    BSON_APPEND_UTF8(doc, "name", name.c_str());
    BSON_APPEND_UTF8(doc, "category", category.name);
    // Six distinct attributes of the category's fifteen, in a shuffled order.
    bool taken[15] = {};
    std::uint64_t picked = 0;
    while (picked < kPerProduct) {
        const std::uint64_t k = rng.below(15);
        if (taken[k])
            continue;
        taken[k] = true;
        ++picked;
        appendAttribute(doc, category.attributes[k], i, rng);
        if (picked == 3)
            BSON_APPEND_DOUBLE(doc, "price", double(100 + rng.below(99900)) / 100.0);
    }
    BSON_APPEND_INT32(doc, "stock", std::int32_t(rng.below(500)));
}

} // namespace oe::demo
