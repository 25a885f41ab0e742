#include <catch2/catch.hpp>

#include "support/topology_support.hpp"
#include "topology/distances.hpp"
#include "topology/spec_reader.hpp"

using namespace ccforge::topo;

TEST_CASE("steps count GPU-to-GPU transfers: switches and NICs are transparent") {
  CHECK(diameter(stepDistances(loadTopology("dgx1"))) == 2);
  CHECK(diameter(stepDistances(loadTopology("a100-1"))) == 1);
  CHECK(diameter(stepDistances(loadTopology("dgx2-1"))) == 1);
  // Rails joined by a spine: a GPU reaches every GPU of the other box in one connection, on its
  // own rail or through the spine.
  auto a100 = stepDistances(loadTopology("a100-2"));
  CHECK(a100[0][8] == 1);
  CHECK(a100[0][9] == 1);
  CHECK(diameter(a100) == 1);
}

TEST_CASE("NDv2 x2 in TE-CCL's model: one route between the boxes, diameter 5") {
  auto d = stepDistances(loadTopology("ndv2-2"));
  CHECK(d[0][9] == 1);   // b0.gpu0 -> b1.gpu1
  CHECK(d[9][0] == 3);   // b1.gpu1 -> b1.gpu0 -> b0.gpu1 -> b0.gpu0
  CHECK(d[5][12] == 5);  // b0.gpu5 -> gpu0 (2) -> b1.gpu1 (1) -> b1.gpu4 (2)
  CHECK(diameter(d) == 5);
}

TEST_CASE("an unreachable pair is reported, the diameter is undefined") {
  Topology t = readTopology(R"({"name": "oneway", "vertices": [{"name": "a"}, {"name": "b"}],
    "links": [{"from": "a", "to": "b", "bw": 1, "directed": true}]})",
                            "t.json", {});
  auto d = stepDistances(t);
  CHECK(firstUnreachablePair(d) == std::pair<int32_t, int32_t>{1, 0});
  CHECK_FALSE(diameter(d));
}

TEST_CASE("where the fabric relays, a route through GPUs is one step: mi250-1 diameter 1, 5 without relaying") {
  CHECK(diameter(stepDistances(loadTopology("mi250-1"))) == 1);
  auto plain = stepDistances(ccforge::test::mi250WithoutRelay());
  CHECK(plain[0][2] == 3);  // gpu0 -> gpu1 -> gpu9 -> gpu2, GCD by GCD
  CHECK(diameter(plain) == 5);
  // A relayed step passes GPUs only: a GPU, then a switch, is two steps.
  Topology mixed = readTopology(R"({"name": "mixed", "gpu_relay": true,
    "vertices": [{"name": "a"}, {"name": "b"}, {"name": "c"}, {"name": "s", "kind": "switch"}],
    "links": [{"from": "a", "to": "b", "bw": 1}, {"from": "b", "to": "s", "bw": 1}, {"from": "s", "to": "c", "bw": 1}]})",
                                "t.json", {});
  CHECK(stepDistances(mixed)[0][2] == 2);
}
