#pragma once

#include <QStringList>

// `outlier-explorer-cli codegen`: the application's read and write paths for a split layout,
// in one language with its official driver.
namespace CodegenCommand {
int run(const QStringList &arguments);
}
