// The report of `ccforge plan` (docs/plan.md): the plan beside every baseline and the lower bound,
// as text for people and JSON for scripts, and the title of its timeline picture.
#pragma once

#include <string>

#include "plan/plan_setting.hpp"
#include "plan/planner.hpp"

namespace ccforge::plan {

std::string planText(const PlanSetting& c, const PlanReport& r);
std::string planJson(const PlanSetting& c, const PlanReport& r);
// "ccforge plan MODEL on WHERE: iteration X ms, lower bound Y ms".
std::string planTimelineTitle(const PlanSetting& c, const PlanReport& r);

}  // namespace ccforge::plan
