#include "source/DocumentSource.h"

namespace oe {
DocumentSource::~DocumentSource() = default;
} // namespace oe
