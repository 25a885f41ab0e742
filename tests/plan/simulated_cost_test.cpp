// Bucket costs from ccforge's own simulator (src/plan/simulated_cost.hpp).
#include <catch2/catch.hpp>

#include "plan/simulated_cost.hpp"
#include "plan/tensor_fusion.hpp"

namespace ccforge::plan {

TEST_CASE("simulated costs cover the library's AllReduces on a preset switch") {
  topo::Topology t = presetTopology(findNetworkPreset("ib56"), 8);
  CHECK(t.gpus().size() == 8);
  SimulatedCostOptions o;
  o.sizes = {4096, 1 << 20, 16 << 20};
  o.arch = sim::Arch::None;
  std::vector<std::string> notes;
  CommCost c = simulatedCost(t, o, &notes);
  // 8 ranks, one box: ring, allpairs and recursive halving-doubling (8 is a power of two), each
  // in the Simple, LL128 and LL protocols.
  REQUIRE(c.curves().size() == 9);
  CHECK(c.curves()[0].name == "ring-allreduce/Simple");
  CHECK(c.curves()[1].name == "ring-allreduce/LL128");
  CHECK(c.curves()[2].name == "ring-allreduce/LL");
  CHECK(c.curves()[3].name == "allpairs-allreduce/Simple");
  CHECK(c.curves()[8].name == "recursive-halving-doubling-allreduce/LL");
  CHECK(c.monotone());
  for (const AlgorithmCurve& a : c.curves()) {
    REQUIRE(a.table.size() == 3);
    CHECK(a.table[0].second > 0);
    CHECK(a.table[2].second > a.table[0].second);  // 16 MiB takes longer than 4 KiB
  }
  // Ring only restricts the candidates; so does a protocol list.
  o.ringOnly = true;
  CHECK(simulatedCost(t, o, nullptr).curves().size() == 3);
  o.protocols = {ir::Protocol::Simple};
  CHECK(simulatedCost(t, o, nullptr).curves().size() == 1);
  CHECK(c.onlyNamed("ring-allreduce/").curves().size() == 3);
}

TEST_CASE("tables interpolate linearly and extrapolate the last slope") {
  AlgorithmCurve c{"t", "", 0, 0, {{1000, 10}, {2000, 30}}};
  CHECK(c.timeUs(500) == 10);
  CHECK(c.timeUs(1500) == 20);
  CHECK(c.timeUs(3000) == 50);
}

}  // namespace ccforge::plan
