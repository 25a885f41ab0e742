// tune's picture: predicted algbw against size (log-log) for every candidate and NCCL's
// fallback, the chosen windows shaded (in-place above the axis band, out-of-place below), as
// SVG written directly (its PNG copy: base/svg_to_png.hpp).
#pragma once

#include <string>

#include "tune/tuning.hpp"

namespace ccforge::tune {

std::string plotSvg(const CollectiveTuning& t, const std::string& title);

}  // namespace ccforge::tune
