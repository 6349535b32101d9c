#pragma once

#include <QByteArray>

#include <bson/bson.h>

#include <optional>

namespace oe {

// Owns one bson_t and destroys it exactly once, so no code pairs bson_new/bson_destroy by hand:
// an empty document to build on, one parsed from extended JSON, a copy of raw bytes, or the
// reply a driver call fills in (reply(): mongoc initialises its out-parameter even on failure).
// Movable, not copyable; core-internal (ui never sees driver types).
class BsonDocument
{
public:
    BsonDocument() { bson_init(&m_doc); }
    ~BsonDocument() { bson_destroy(&m_doc); }
    BsonDocument(BsonDocument &&other) noexcept
    {
        bson_steal(&m_doc, &other.m_doc);
        bson_init(&other.m_doc);
    }
    BsonDocument &operator=(BsonDocument &&other) noexcept
    {
        if (this != &other) {
            bson_destroy(&m_doc);
            bson_steal(&m_doc, &other.m_doc);
            bson_init(&other.m_doc);
        }
        return *this;
    }
    BsonDocument(const BsonDocument &) = delete;
    BsonDocument &operator=(const BsonDocument &) = delete;

    // Takes over a document the driver's builders made (BCON_NEW, bson_new): `doc` is freed.
    static BsonDocument adopt(bson_t *doc)
    {
        BsonDocument owner;
        bson_destroy(&owner.m_doc);
        bson_steal(&owner.m_doc, doc);
        return owner;
    }
    // nullopt (and `error` filled, if given) when `json` is not an extended JSON document.
    static std::optional<BsonDocument> fromJson(const QByteArray &json,
                                                bson_error_t *error = nullptr)
    {
        BsonDocument doc;
        bson_destroy(&doc.m_doc);
        if (bson_init_from_json(&doc.m_doc, json.constData(), json.size(), error))
            return doc;
        bson_init(&doc.m_doc);
        return std::nullopt;
    }
    // A copy of a whole document's bytes; nullopt when they are not one.
    static std::optional<BsonDocument> fromBytes(const QByteArray &bytes)
    {
        bson_t view;
        if (!bson_init_static(&view, reinterpret_cast<const std::uint8_t *>(bytes.constData()),
                              std::size_t(bytes.size())))
            return std::nullopt;
        BsonDocument doc;
        bson_destroy(&doc.m_doc);
        bson_copy_to(&view, &doc.m_doc);
        return doc;
    }

    bson_t *get() { return &m_doc; }
    const bson_t *get() const { return &m_doc; }
    // Storage for a driver call's reply out-parameter: the current contents are dropped first.
    bson_t *reply()
    {
        bson_reinit(&m_doc);
        return &m_doc;
    }
    QByteArray bytes() const
    {
        return QByteArray(reinterpret_cast<const char *>(bson_get_data(&m_doc)),
                          qsizetype(m_doc.len));
    }

private:
    bson_t m_doc;
};

} // namespace oe
