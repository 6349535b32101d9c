#include "mongo/LiveQuery.h"

#include "bson/internal/BsonDocument.h"

#include <algorithm>
#include <array>

namespace oe {

namespace {
// Server error codes that mean "this query is invalid": BadValue (unknown operators, $where
// on FerretDB), FailedToParse, TypeMismatch, InvalidPipelineOperator (unknown $expr
// operators), QueryFeatureNotAllowed ($where or $function where disabled), NotImplemented
// (operators FerretDB lacks) and 51091 (an invalid regular expression).
constexpr std::array kQueryRejections = {2, 9, 14, 168, 224, 238, 51091};
} // namespace

QString LiveQuery::validateFilter(const QString &filter)
{
    const QString trimmed = filter.trimmed();
    if (trimmed.isEmpty())
        return {};
    // libbson also reads a top-level array, as the document {"0": …, "1": …}, which matches
    // nothing: a filter is a document.
    if (!trimmed.startsWith(QLatin1Char('{')))
        return trimmed.startsWith(QLatin1Char('['))
                   ? QStringLiteral("the filter must be a document {...}, not an array")
                   : QStringLiteral("the filter must be a document {...} (extended JSON)");
    bson_error_t error;
    if (!BsonDocument::fromJson(filter.toUtf8(), &error))
        return QStringLiteral("invalid filter (extended JSON): %1")
            .arg(QString::fromUtf8(error.message));
    return {};
}

void LiveQuery::blameFilter(const QString &filter, SourceError *error)
{
    if (filter.trimmed().isEmpty() || error->kind != SourceError::Kind::Connection ||
        std::find(kQueryRejections.begin(), kQueryRejections.end(), error->serverCode) ==
            kQueryRejections.end())
        return;
    error->kind = SourceError::Kind::Usage;
    error->message = QStringLiteral("--filter rejected by the server: ") + error->message;
}

} // namespace oe
