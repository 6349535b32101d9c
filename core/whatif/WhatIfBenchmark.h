#pragma once

#include "mongo/ConnectionSettings.h"
#include "source/SourceError.h"
#include "whatif/WhatIfOptions.h"
#include "whatif/WhatIfRow.h"

#include <QByteArray>

#include <atomic>
#include <functional>
#include <vector>

namespace oe {

// The measurement that convinces people: in a scratch database on the user's server, the time
// of an append to a document already holding N elements, unbounded ($push into the array)
// against the split layout (the outlier pattern's write path, every round trip it takes), for
// each N. The scratch database is dropped at the end, also on an error or a cancel.
class WhatIfBenchmark
{
public:
    using RowCallback = std::function<void(const WhatIfRow &)>;

    // Rows in the order of options.sizes; `scratch` names the database used. False with
    // `error` set on a refusal (a scratch database with data), a server error, or a cancel
    // (`cancel` set: the rows measured so far are kept).
    static bool run(const ConnectionSettings &settings, const WhatIfOptions &options,
                    std::vector<WhatIfRow> *rows, QString *scratch, SourceError *error,
                    const std::atomic<bool> *cancel = nullptr, const RowCallback &onRow = {});
    // One array element of about `bytes` BSON bytes: {i: n, by: "user-…", pad: "…"}.
    static QByteArray element(std::int64_t n, int bytes);
    // whatif.csv: elements, document bytes, mean and median ms per append for both layouts,
    // and the speed-up.
    static QByteArray csv(const std::vector<WhatIfRow> &rows);
};

} // namespace oe
