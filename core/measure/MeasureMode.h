#pragma once

#include <QString>

#include <optional>

namespace oe {

// Where document sizes and array lengths are measured: on the server ($bsonSize, so a scan
// moves numbers instead of documents: one record per document, or, Cluster, counted there, so
// only tallies and the outliers move), here (every byte travels), or auto. (Saved as their
// numbers: a new one comes last.)
enum class MeasureMode
{
    Auto,
    Server,
    Client,
    Cluster
};

// "auto", "server", "client", "cluster" (the CLI's --measure words); nullopt for another word.
std::optional<MeasureMode> measureModeFrom(const QString &word);
QString measureModeName(MeasureMode mode);

} // namespace oe
