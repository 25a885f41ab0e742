// A PNG copy of an SVG picture, rendered by rsvg-convert (Debian librsvg2-bin, run as a program:
// docs/dependencies.md), for the commands that draw SVG themselves (tune's plot, plan's timeline).
#pragma once

#include <string>

namespace ccforge::base {

// Runs `rsvg-convert -o PNG SVG` (no shell; killed after 30 s). Returns an empty string on
// success, else why no PNG was written (and none is left behind).
std::string svgToPng(const std::string& svgPath, const std::string& pngPath);

}  // namespace ccforge::base
