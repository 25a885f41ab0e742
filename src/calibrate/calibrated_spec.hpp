// The spec `ccforge calibrate -o` writes: the machine's own spec with a "calibration" object.
#pragma once

#include <string>
#include <string_view>

#include "topology/calibration.hpp"

namespace ccforge::calibrate {

// `specText` (a catalog spec's or a spec file's JSON) with its "calibration" replaced by
// `calibration`. A relative "box" path becomes absolute (against `specDirectory`), so that the
// written spec reads from anywhere; a catalog name stays. Throws std::invalid_argument when the
// text is not a JSON object.
std::string calibratedSpec(std::string_view specText, const std::string& specDirectory,
                           const topo::Calibration& calibration);

}  // namespace ccforge::calibrate
