#include <catch2/catch.hpp>

#include "synth/flow/max_flow.hpp"

using namespace ccforge::synth;

TEST_CASE("max flow and the source side of a minimum cut") {
  // s=0 -> 1 (4), s -> 2 (3), 1 -> 2 (5), 1 -> t=3 (2), 2 -> t (3): max flow 5, and the
  // only minimum cut has source side {s, 1, 2}.
  FlowNetwork n(4);
  n.addEdge(0, 1, 4);
  n.addEdge(0, 2, 3);
  n.addEdge(1, 2, 5);
  n.addEdge(1, 3, 2);
  n.addEdge(2, 3, 3);
  CHECK(n.maxFlow(0, 3) == 5);
  std::vector<bool> side = n.sourceSide(0);
  CHECK(side == std::vector<bool>{true, true, true, false});
}

TEST_CASE("a bottleneck near the source puts the cut there") {
  FlowNetwork n(3);
  n.addEdge(0, 1, 1);
  n.addEdge(1, 2, 10);
  CHECK(n.maxFlow(0, 2) == 1);
  CHECK(n.sourceSide(0) == std::vector<bool>{true, false, false});
}
