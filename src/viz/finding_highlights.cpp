#include "viz/finding_highlights.hpp"

namespace ccforge::viz {

std::vector<HighlightGroup> highlightsOf(const std::vector<verify::Violation>& violations) {
  std::vector<HighlightGroup> groups;
  for (const verify::Violation& v : violations) {
    if (v.severity != verify::Severity::Error || v.steps.empty()) continue;
    HighlightGroup g;
    g.cycle = v.rule.starts_with("deadlock");
    for (const verify::StepRef& s : v.steps) g.steps.push_back({s.rank, s.tb, s.step});
    groups.push_back(std::move(g));
  }
  return groups;
}

std::vector<HighlightGroup> highlightsOf(const verify::Witness& witness) {
  HighlightGroup path;
  path.kind = NodeMark::Witness;
  for (const verify::ScheduleEvent& e : witness.schedule) {
    // A step's tiles and its data events are consecutive events of one step: drawn once.
    const bool repeat = !path.steps.empty() && path.steps.back().rank == e.rank && path.steps.back().tb == e.tb &&
                        path.steps.back().step == e.step;
    if (!repeat) path.steps.push_back({e.rank, e.tb, e.step});
  }
  std::vector<HighlightGroup> groups{std::move(path)};
  for (const verify::StepRef& s : witness.blocked)
    groups.push_back({{{s.rank, s.tb, s.step}}, false, NodeMark::Blocked});
  return groups;
}

std::vector<HighlightGroup> highlightsOf(const verify::ReportFile& file) {
  if (file.witness) return highlightsOf(*file.witness);
  std::vector<HighlightGroup> groups;
  for (const verify::FileReport& r : file.reports) {
    std::vector<HighlightGroup> more = highlightsOf(r.violations);
    groups.insert(groups.end(), more.begin(), more.end());
  }
  return groups;
}

}  // namespace ccforge::viz
