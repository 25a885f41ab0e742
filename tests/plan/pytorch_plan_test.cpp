// What `plan --emit-pytorch` writes (plan/pytorch_plan.hpp), from the library. The module run by
// PyTorch itself is tests/e2e/pytorch_plan.py.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>

#include "plan/comm_cost.hpp"
#include "plan/op_fusion.hpp"
#include "plan/plan_setting.hpp"
#include "plan/planner.hpp"
#include "plan/pytorch_plan.hpp"
#include "plan/workload_reader.hpp"

using namespace ccforge::plan;

TEST_CASE("pytorch module: names from the inputs cannot leave the module's comments") {
  PlanSetting s{loadWorkload("resnet50"), analyticCost(findNetworkPreset("10gbe"), 8), "preset", "10gbe", {}, 1};
  s.workload.name = "resnet50\nimport os\rprint(1)";
  s.workload.source = "dir\n/x.json";
  RooflineEstimator estimator;
  const PlanReport r = makePlan(s.workload, s.cost, PlanOptions{}, estimator);
  const std::string module = pytorchModule(s, r, nearestDdpSetting(r.schedule, s.cost, 1));
  CHECK(module.starts_with("# Written by `ccforge plan` for the workload resnet50 import os print(1) (dir /x.json) "));
  std::istringstream lines(module);
  for (std::string line; std::getline(lines, line);) {
    CHECK_FALSE(line.starts_with("import"));
    CHECK_FALSE(line.starts_with("print"));
    CHECK(line.find('\r') == std::string::npos);
  }
}

TEST_CASE("pytorch module: every tensor in exactly one bucket, in the plan's order") {
  PlanSetting s{loadWorkload("resnet50"), analyticCost(findNetworkPreset("10gbe"), 64), "preset", "10gbe", {}, 1};
  RooflineEstimator estimator;
  const PlanReport r = makePlan(s.workload, s.cost, PlanOptions{}, estimator);
  const DdpSetting ddp = nearestDdpSetting(r.schedule, s.cost, 1);
  const std::string module = pytorchModule(s, r, ddp);
  size_t at = 0;
  for (int32_t tensor : r.schedule.tensorOrder) {
    const std::string quoted = "\"" + s.workload.tensors[static_cast<size_t>(tensor)].name + "\"";
    at = module.find(quoted, at);
    REQUIRE(at != std::string::npos);
    CHECK(module.find(quoted, at + 1) == std::string::npos);
  }
  // The nearest DDP cap is no slower than DDP's default, and never faster than the optimal plan.
  CHECK(ddp.iterationUs <= ddp.defaultIterationUs);
  CHECK(ddp.iterationUs >= r.iterationUs * (1 - 1e-12));
  CHECK(module.find("BUCKET_CAP_MB = " + std::to_string(ddp.capMb) + "\n") != std::string::npos);
}
