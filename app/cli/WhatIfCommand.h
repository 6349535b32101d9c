#pragma once

#include <QStringList>

// `outlier-explorer-cli whatif`: on the user's server, in a scratch database, the time of an
// append to a document holding N elements, unbounded against the split layout.
namespace WhatIfCommand {
int run(const QStringList &arguments);
}
