// Runs one database command for the live-test fixtures (tests/live/mongod-fixture.sh) through the
// MongoDB C driver, so that no fixture hand-writes the wire protocol or BSON.
//
//   fixture_command URI DATABASE COMMAND_AS_EXTENDED_JSON
//
// Prints the reply as relaxed extended JSON on stdout and exits 0 when the server answered ok: 1;
// otherwise prints the driver's one-line error on stderr and exits 1 (2 for bad arguments). The
// server is selected within the URI's serverSelectionTimeoutMS (2 s unless the URI sets it).
#include "bson/internal/BsonDocument.h"
#include "mongo/internal/DriverHandles.h"

#include <QByteArray>

#include <cstdio>
#include <memory>

namespace {

struct JsonDeleter
{
    void operator()(char *s) const { bson_free(s); }
};

int run(const char *uriText, const char *database, const char *commandJson)
{
    bson_error_t error;
    oe::UriHandle uri(mongoc_uri_new_with_error(uriText, &error));
    if (!uri) {
        std::fprintf(stderr, "fixture_command: bad URI: %s\n", error.message);
        return 2;
    }
    if (!mongoc_uri_has_option(uri.get(), MONGOC_URI_SERVERSELECTIONTIMEOUTMS))
        mongoc_uri_set_option_as_int32(uri.get(), MONGOC_URI_SERVERSELECTIONTIMEOUTMS, 2000);
    auto command = oe::BsonDocument::fromJson(QByteArray(commandJson), &error);
    if (!command) {
        std::fprintf(stderr, "fixture_command: bad command JSON: %s\n", error.message);
        return 2;
    }
    oe::ClientHandle client(mongoc_client_new_from_uri_with_error(uri.get(), &error));
    if (!client) {
        std::fprintf(stderr, "fixture_command: %s\n", error.message);
        return 2;
    }
    oe::BsonDocument reply;
    if (!mongoc_client_command_simple(client.get(), database, command->get(), nullptr,
                                      reply.reply(), &error)) {
        std::fprintf(stderr, "fixture_command: %s (code %u)\n", error.message, error.code);
        return 1;
    }
    std::unique_ptr<char, JsonDeleter> json(bson_as_relaxed_extended_json(reply.get(), nullptr));
    std::printf("%s\n", json.get());
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc != 4) {
        std::fprintf(stderr, "usage: fixture_command URI DATABASE COMMAND_AS_EXTENDED_JSON\n");
        return 2;
    }
    mongoc_init();
    const int rc = run(argv[1], argv[2], argv[3]);
    mongoc_cleanup();
    return rc;
}
