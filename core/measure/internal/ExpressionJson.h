#pragma once

// Internal to core/measure: aggregation expressions written as Qt JSON values (field names and
// operators), then turned into BSON for the server.

#include "bson/internal/BsonDocument.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>

namespace oe::expr {

using J = QJsonValue;
using A = QJsonArray;
using O = QJsonObject;

// {name: argument}
inline J op(const char *name, const J &argument)
{
    return O{{QString::fromLatin1(name), argument}};
}

// The object as a BSON document (empty if it is not one, which an object always is).
inline BsonDocument toDocument(const O &object)
{
    auto doc = BsonDocument::fromJson(QJsonDocument(object).toJson(QJsonDocument::Compact));
    return doc ? std::move(*doc) : BsonDocument();
}

} // namespace oe::expr
