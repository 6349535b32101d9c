#include "mongo/NamespaceLookup.h"

#include "bson/internal/BsonDocument.h"
#include "mongo/internal/DriverHandles.h"
#include "mongo/internal/MongoDriver.h"

#include <algorithm>
#include <optional>
#include <vector>

namespace oe {

namespace {

constexpr int kMaxQuoted = 80; // characters of a name shown

// Every name the driver listed, or nullopt when it could not list them.
std::optional<QStringList> namesFrom(char **names)
{
    if (!names)
        return std::nullopt;
    QStringList out;
    for (char **name = names; *name; ++name)
        out << QString::fromUtf8(*name);
    bson_strfreev(names);
    return out;
}

std::optional<QStringList> collectionsOf(const MongoConnection &connection, const QString &database)
{
    const DatabaseHandle db(
        mongoc_client_get_database(MongoDriver::client(connection), database.toUtf8().constData()));
    bson_error_t e;
    return namesFrom(mongoc_database_get_collection_names_with_opts(db.get(), nullptr, &e));
}

std::optional<QStringList> databasesOf(const MongoConnection &connection)
{
    // authorizedDatabases: a user who may not list them all still sees their own.
    const BsonDocument opts = BsonDocument::adopt(BCON_NEW("authorizedDatabases", BCON_BOOL(true)));
    bson_error_t e;
    return namesFrom(mongoc_client_get_database_names_with_opts(MongoDriver::client(connection),
                                                                opts.get(), &e));
}

// Levenshtein distance, case folded, on the first 100 characters (names are short; a hostile
// one must not cost much).
int distance(const QString &a, const QString &b)
{
    const QString x = a.left(100).toCaseFolded(), y = b.left(100).toCaseFolded();
    std::vector<int> row(std::size_t(y.size()) + 1);
    for (std::size_t j = 0; j < row.size(); ++j)
        row[j] = int(j);
    for (qsizetype i = 1; i <= x.size(); ++i) {
        int diagonal = row[0];
        row[0] = int(i);
        for (qsizetype j = 1; j <= y.size(); ++j) {
            const int above = row[std::size_t(j)];
            row[std::size_t(j)] = std::min({above + 1, row[std::size_t(j - 1)] + 1,
                                            diagonal + (x[i - 1] == y[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row.back();
}

// The kMaxNearby names closest to `typed`, closest first (ties by name).
QStringList closest(const QString &typed, QStringList names)
{
    std::vector<std::pair<int, QString>> ranked;
    ranked.reserve(std::size_t(names.size()));
    for (QString &name : names)
        ranked.emplace_back(distance(typed, name), std::move(name));
    const std::size_t kept = std::min<std::size_t>(ranked.size(), NamespaceLookup::kMaxNearby);
    std::partial_sort(ranked.begin(), ranked.begin() + std::ptrdiff_t(kept), ranked.end());
    QStringList out;
    for (std::size_t i = 0; i < kept; ++i)
        out << ranked[i].second;
    return out;
}

bool needsEscape(char32_t c)
{
    switch (QChar::category(c)) {
    case QChar::Other_Control:
    case QChar::Other_Format: // bidirectional overrides, zero-width characters
    case QChar::Other_Surrogate:
    case QChar::Separator_Line:
    case QChar::Separator_Paragraph:
        return true;
    default:
        return false;
    }
}

} // namespace

NamespaceLookup NamespaceLookup::look(const MongoConnection &connection, const QString &database,
                                      const QString &collection)
{
    NamespaceLookup out;
    out.database = database;
    out.collection = collection;
    const std::optional<QStringList> collections = collectionsOf(connection, database);
    if (!collections)
        return out; // Unknown
    if (collections->contains(collection)) {
        out.state = State::Present;
        return out;
    }
    QStringList candidates;
    if (collections->isEmpty()) {
        out.state = State::NoDatabase;
        candidates = databasesOf(connection).value_or(QStringList());
    } else {
        out.state = State::NoCollection;
        for (const QString &name : *collections)
            if (!name.startsWith(QLatin1String("system.")))
                candidates << name;
    }
    out.candidates = int(candidates.size());
    out.nearby = closest(out.state == State::NoDatabase ? database : collection, candidates);
    return out;
}

QString NamespaceLookup::message() const
{
    QStringList names;
    for (const QString &name : nearby)
        names << quoted(name);
    const QString of = candidates > nearby.size()
                           ? QStringLiteral(" (%1 of %2)").arg(nearby.size()).arg(candidates)
                           : QString();
    switch (state) {
    case State::NoCollection:
        return QStringLiteral("no collection %1 in database %2; its collections closest to that "
                              "name: %3%4")
            .arg(quoted(collection), quoted(database), names.join(QStringLiteral(", ")), of);
    case State::NoDatabase:
        return QStringLiteral("no database %1 on the server (no collection is in it)%2")
            .arg(quoted(database),
                 names.isEmpty() ? QString()
                                 : QStringLiteral("; the databases closest to that name: %1%2")
                                       .arg(names.join(QStringLiteral(", ")), of));
    case State::Present:
    case State::Unknown:
        break;
    }
    return {};
}

QString NamespaceLookup::quoted(const QString &name)
{
    QString out = QStringLiteral("\"");
    int shown = 0;
    for (const char32_t c : name.toUcs4()) {
        if (++shown > kMaxQuoted) {
            out += QStringLiteral("…");
            break;
        }
        if (c == U'"' || c == U'\\')
            out += QLatin1Char('\\') + QChar(c);
        else if (c == U'\n')
            out += QStringLiteral("\\n");
        else if (c == U'\t')
            out += QStringLiteral("\\t");
        else if (c == U'\r')
            out += QStringLiteral("\\r");
        else if (needsEscape(c) || c > 0x10FFFF)
            out += QStringLiteral("\\u%1").arg(uint(c), 4, 16, QLatin1Char('0'));
        else
            out += QString::fromUcs4(&c, 1);
    }
    return out + QLatin1Char('"');
}

} // namespace oe
