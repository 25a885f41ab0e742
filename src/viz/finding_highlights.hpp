// What of a verification `ccforge dot` highlights: the steps of every error finding that names
// steps (a deadlock cycle is closed, a race pair or a chain that produced a wrong chunk is a
// path), and for an SMT witness the schedule's steps in the order they run, then each step a
// deadlocked block waits at, on its own.
#pragma once

#include <vector>

#include "verify/report.hpp"
#include "verify/report_reader.hpp"
#include "viz/dot_views.hpp"

namespace ccforge::viz {

std::vector<HighlightGroup> highlightsOf(const std::vector<verify::Violation>& violations);
std::vector<HighlightGroup> highlightsOf(const verify::Witness& witness);
// Every file of a JSON report, or its witness.
std::vector<HighlightGroup> highlightsOf(const verify::ReportFile& file);

}  // namespace ccforge::viz
