#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace oe {

// A sharded collection's shard key, as `config.collections` holds it (`key: {region: 1,
// _id: "hashed"}`): its fields in order, each ranged or hashed. A value type.
class ShardKey
{
public:
    struct Field
    {
        QString path; // dotted
        bool hashed = false;
    };

    // From the raw BSON of a key document; nullopt when it is not one (no field, or a field whose
    // value is neither a number nor "hashed").
    static std::optional<ShardKey> fromBson(const QByteArray &keyDocument);

    const std::vector<Field> &fields() const { return m_fields; }
    QStringList paths() const;
    bool isHashed() const;
    // {_id: 1}: chunk boundaries are `_id` values.
    bool isRangedOnIdOnly() const;
    // The field of the key that `path` is, lies in, or holds (`comments` and `comments.user`
    // overlap both ways); empty when none does.
    QString overlapping(const QString &path) const;
    // "{region: 1, _id: \"hashed\"}"
    QString toText() const;
    // The key's values in a whole document, as the raw BSON document {path: value, ...} in key
    // order; a missing field is null, as the server treats it. Empty when `document` is not BSON.
    QByteArray valuesOf(const QByteArray &document) const;

    // Negative, zero or positive as key values `a` sort before, with or after `b` (documents
    // of the key's fields in order; MinKey and MaxKey bound chunks), field by field.
    static int compareValues(const QByteArray &a, const QByteArray &b);

private:
    std::vector<Field> m_fields;
};

} // namespace oe
