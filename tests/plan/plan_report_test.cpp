// The report of `ccforge plan`, from the library (plan/plan_report.hpp): ResNet-50 on the 10 GbE
// preset, the command's default.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "plan/comm_cost.hpp"
#include "plan/op_fusion.hpp"
#include "plan/plan_report.hpp"
#include "plan/plan_setting.hpp"
#include "plan/planner.hpp"
#include "plan/workload_reader.hpp"

using namespace ccforge::plan;

TEST_CASE("plan report: the text names the setting, every method and every bucket; the JSON agrees") {
  PlanSetting s{
      loadWorkload("resnet50"), analyticCost(findNetworkPreset("10gbe"), 8), "preset", "10gbe, 8 workers", {}, 1};
  RooflineEstimator estimator;
  const PlanReport r = makePlan(s.workload, s.cost, PlanOptions{}, estimator);
  const std::string text = planText(s, r);
  CHECK(text.starts_with("plan resnet50 (32 images) on 10gbe, 8 workers: 161 gradient tensors, 97.5 MiB\n"));
  CHECK(text.find("bucket costs: " + s.costName + "\n") != std::string::npos);
  for (const MethodResult& m : r.methods) CHECK(text.find("  " + m.name) != std::string::npos);
  CHECK(text.find("\nplan: " + std::to_string(r.buckets.buckets.size()) + " buckets, iteration ") != std::string::npos);
  const nlohmann::json j = nlohmann::json::parse(planJson(s, r));
  CHECK(j["model"] == "resnet50");
  CHECK(j["buckets"].size() == r.buckets.buckets.size());
  CHECK(j["methods"].size() == r.methods.size());
  CHECK(j["iteration_us"].get<double>() == r.iterationUs);
  CHECK(planTimelineTitle(s, r).starts_with("ccforge plan resnet50 on 10gbe, 8 workers: iteration "));
}
