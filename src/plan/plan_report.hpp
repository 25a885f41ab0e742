// The report of `ccforge plan` (docs/plan.md): the plan beside every baseline and the lower bound,
// as text for people and JSON for scripts, and the title of its timeline picture.
#pragma once

#include <string>
#include <vector>

#include "plan/comm_cost.hpp"
#include "plan/planner.hpp"
#include "plan/workload.hpp"

namespace ccforge::plan {

// What the plan was made for: the workload, the bucket costs and how they were obtained.
struct PlanSetting {
  Workload workload;
  CommCost cost;
  std::string costName;  // "alpha-beta preset (...)" or "ccforge simulate of each algorithm on ..."
  std::string where;     // "10gbe, 8 workers" or the topology
  std::vector<std::string> notes;
  int32_t channels = 1;
};

std::string planText(const PlanSetting& c, const PlanReport& r);
std::string planJson(const PlanSetting& c, const PlanReport& r);
// "ccforge plan MODEL on WHERE: iteration X ms, lower bound Y ms".
std::string planTimelineTitle(const PlanSetting& c, const PlanReport& r);

}  // namespace ccforge::plan
