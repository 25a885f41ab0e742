#include "plan/plan_setting.hpp"

#include <algorithm>

#include "plan/simulated_cost.hpp"
#include "plan/workload_reader.hpp"
#include "topology/spec_reader.hpp"

namespace ccforge::plan {

PlanSetting makePlanSetting(const PlanSettingRequest& request) {
  PlanSetting c{loadWorkload(request.model, request.astraCycleNs), {}, "", "", {}, request.channels};
  if (!request.topology.empty() || request.simulate || !request.irFiles.empty()) {
    topo::Topology t;
    SimulatedCostOptions o;
    if (!request.topology.empty()) {
      t = topo::loadTopology(request.topology);
      c.where = t.name + ", " + std::to_string(t.gpus().size()) + " workers";
    } else {
      t = presetTopology(findNetworkPreset(request.network), request.workers);
      o.arch = sim::Arch::None;
      c.where = request.network + " (simulated switch), " + std::to_string(request.workers) + " workers";
    }
    o.maxBytes = std::max<uint64_t>(o.maxBytes, c.workload.gradientBytes());  // the largest possible bucket
    o.irFiles = request.irFiles;
    o.irDir = request.irDir;
    o.ringOnly = request.ringOnly;
    c.cost = simulatedCost(t, o, &c.notes);
    std::vector<uint64_t> sizes = defaultSimulatedSizes(o.maxBytes);
    c.costName = "ccforge simulate of each algorithm on " + t.name + " (1 KiB.." + std::to_string(sizes.back() >> 20) +
                 " MiB by factors of 4, interpolated)";
  } else {
    const NetworkPreset& p = findNetworkPreset(request.network);
    c.cost = analyticCost(p, request.workers, request.ringOnly);
    c.where = request.network + ", " + std::to_string(request.workers) + " workers";
    c.costName = "alpha-beta preset (" + p.description + ")";
  }
  std::string names;
  for (const AlgorithmCurve& a : c.cost.curves()) names += (names.empty() ? "" : ", ") + a.name;
  c.costName += "; algorithms: " + names;
  return c;
}

}  // namespace ccforge::plan
