// What `ccforge plan` plans for (docs/plan.md): the workload and the bucket costs, either the
// alpha-beta curves of a network preset or every algorithm simulated on a topology (a catalog or
// spec topology, or the preset's network as one switch), and how they were obtained, for the report.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "plan/comm_cost.hpp"
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

struct PlanSettingRequest {
  std::string model;          // a built-in model, a workload JSON or an ASTRA-sim file
  double astraCycleNs = 1.0;  // ASTRA-sim files: nanoseconds per cycle
  std::string network = "10gbe";
  int32_t workers = 8;
  std::string topology;   // non-empty: simulate every algorithm on it
  bool simulate = false;  // simulate on the preset network (one switch) instead of its curves
  bool ringOnly = false;
  std::vector<std::string> irFiles;  // IR files simulated as further algorithms
  std::string irDir;
  int32_t channels = 1;
};

// Throws what loadWorkload, findNetworkPreset, loadTopology and simulatedCost throw.
PlanSetting makePlanSetting(const PlanSettingRequest& request);

}  // namespace ccforge::plan
