#pragma once

#include <QString>

#include <optional>

namespace oe {

// Where document sizes and array lengths are measured: on the server ($bsonSize, so a scan
// moves numbers instead of documents), here (every byte travels), or on the server where it can.
enum class MeasureMode
{
    Auto,
    Server,
    Client
};

// "auto", "server", "client" (the CLI's --measure words); nullopt for another word.
std::optional<MeasureMode> measureModeFrom(const QString &word);
QString measureModeName(MeasureMode mode);

} // namespace oe
