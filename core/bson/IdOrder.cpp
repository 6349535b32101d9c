#include "bson/IdOrder.h"

#include "bson/internal/BsonRaw.h"

#include <bson/bson.h>

#include <cstring>

namespace oe {

namespace {

std::int64_t int64At(const char *p)
{
    std::int64_t v;
    std::memcpy(&v, p, 8);
    return std::int64_t(BSON_UINT64_FROM_LE(std::uint64_t(v)));
}

std::int32_t int32At(const char *p)
{
    std::int32_t v;
    std::memcpy(&v, p, 4);
    return std::int32_t(BSON_UINT32_FROM_LE(std::uint32_t(v)));
}

// Numbers compare by value whatever their BSON type; long double holds every int64 exactly.
long double numberOf(const QByteArray &raw)
{
    const char *p = raw.constData() + 1;
    switch (int(raw[0])) {
    case BSON_TYPE_INT32:
        return int32At(p);
    case BSON_TYPE_INT64:
        return int64At(p);
    case BSON_TYPE_DOUBLE: {
        double d;
        std::uint64_t bits = BSON_UINT64_FROM_LE(std::uint64_t(int64At(p)));
        std::memcpy(&d, &bits, 8);
        return d;
    }
    default:
        return 0;
    }
}

// A string's bytes without its length prefix and NUL.
QByteArray stringOf(const QByteArray &raw)
{
    return raw.size() >= 6 ? raw.mid(5, raw.size() - 6) : QByteArray();
}

template <typename T> int order(const T &a, const T &b)
{
    return a < b ? -1 : (b < a ? 1 : 0);
}

} // namespace

int IdOrder::typeRank(int bsonType)
{
    switch (bsonType) {
    case BSON_TYPE_MINKEY:
        return 0;
    case BSON_TYPE_UNDEFINED:
    case BSON_TYPE_NULL:
        return 5;
    case BSON_TYPE_DOUBLE:
    case BSON_TYPE_INT32:
    case BSON_TYPE_INT64:
    case BSON_TYPE_DECIMAL128:
        return 10;
    case BSON_TYPE_UTF8:
    case BSON_TYPE_SYMBOL:
        return 15;
    case BSON_TYPE_DOCUMENT:
        return 20;
    case BSON_TYPE_ARRAY:
        return 25;
    case BSON_TYPE_BINARY:
        return 30;
    case BSON_TYPE_OID:
        return 35;
    case BSON_TYPE_BOOL:
        return 40;
    case BSON_TYPE_DATE_TIME:
        return 45;
    case BSON_TYPE_TIMESTAMP:
        return 47;
    case BSON_TYPE_REGEX:
        return 50;
    case BSON_TYPE_DBPOINTER:
        return 55;
    case BSON_TYPE_CODE:
        return 60;
    case BSON_TYPE_CODEWSCOPE:
        return 65;
    default:
        return 127;
    }
}

bool IdOrder::cuttable(int bsonType)
{
    switch (bsonType) {
    case BSON_TYPE_OID:
    case BSON_TYPE_INT32:
    case BSON_TYPE_INT64:
    case BSON_TYPE_DOUBLE:
    case BSON_TYPE_UTF8:
    case BSON_TYPE_DATE_TIME:
        return true;
    default:
        return false;
    }
}

int IdOrder::compare(const QByteArray &a, const QByteArray &b)
{
    if (a.isEmpty() || b.isEmpty())
        return order(a.size(), b.size());
    const int ta = int(std::uint8_t(a[0]));
    const int tb = int(std::uint8_t(b[0]));
    if (const int byRank = order(typeRank(ta), typeRank(tb)))
        return byRank;
    switch (typeRank(ta)) {
    case 10:
        if (ta != BSON_TYPE_DECIMAL128 && tb != BSON_TYPE_DECIMAL128)
            return order(numberOf(a), numberOf(b));
        break;
    case 15:
        return order(stringOf(a), stringOf(b)); // byte-wise, as without a collation
    case 35:
        return order(a.mid(1), b.mid(1)); // 12 bytes, big-endian timestamp first
    case 45:
        return order(int64At(a.constData() + 1), int64At(b.constData() + 1));
    default:
        break;
    }
    // Types never cut into ranges: a fixed order, enough to be deterministic.
    return order(a, b);
}

QByteArray IdOrder::idOf(const unsigned char *document, unsigned length)
{
    bson_t doc;
    bson_iter_t it;
    if (!bson_init_static(&doc, document, length) || !bson_iter_init_find(&it, &doc, "_id"))
        return {};
    return bsonraw::valueOf(&it);
}

} // namespace oe
