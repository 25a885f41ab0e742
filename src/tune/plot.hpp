// tune's picture: predicted algbw against size (log-log) for every candidate and NCCL's
// fallback, the chosen windows shaded (in-place above the axis band, out-of-place below), as
// SVG written directly; and its PNG copy through rsvg-convert when that program is installed.
#pragma once

#include <string>

#include "tune/tuning.hpp"

namespace ccforge::tune {

std::string plotSvg(const CollectiveTuning& t, const std::string& title);

// Runs `rsvg-convert -o PNG SVG` (no shell; killed after 30 s). Returns an empty string on
// success, else why no PNG was written.
std::string svgToPng(const std::string& svgPath, const std::string& pngPath);

}  // namespace ccforge::tune
