#pragma once

// Internal to core: owners for the driver's handles, so each is destroyed exactly once on
// every path (early returns and exceptions included). Same idea as BsonDocument for bson_t.

#include <mongoc/mongoc.h>

#include <memory>

namespace oe {

template <auto Destroy> struct DriverDeleter
{
    template <class T> void operator()(T *handle) const
    {
        if (handle)
            Destroy(handle);
    }
};

template <class T, auto Destroy> using DriverHandle = std::unique_ptr<T, DriverDeleter<Destroy>>;

using ClientHandle = DriverHandle<mongoc_client_t, mongoc_client_destroy>;
using UriHandle = DriverHandle<mongoc_uri_t, mongoc_uri_destroy>;
using DatabaseHandle = DriverHandle<mongoc_database_t, mongoc_database_destroy>;
using CollectionHandle = DriverHandle<mongoc_collection_t, mongoc_collection_destroy>;
using CursorHandle = DriverHandle<mongoc_cursor_t, mongoc_cursor_destroy>;
using BulkHandle = DriverHandle<mongoc_bulk_operation_t, mongoc_bulk_operation_destroy>;
using ReadPrefsHandle = DriverHandle<mongoc_read_prefs_t, mongoc_read_prefs_destroy>;

} // namespace oe
