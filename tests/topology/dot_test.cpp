#include <catch2/catch.hpp>

#include "viz/topology_dot.hpp"
#include "topology/spec_reader.hpp"

using namespace ccforge::topo;

TEST_CASE("DOT draws a pair of equal opposite links once, with both arrowheads") {
  std::string dot = ccforge::viz::topologyToDot(loadTopology("dgx1"));
  CHECK_THAT(dot, Catch::StartsWith("digraph \"dgx1\" {"));
  CHECK_THAT(dot, Catch::Contains(R"("gpu0" -> "gpu1" [label="50 GB/s", dir=both];)"));
  CHECK_THAT(dot, !Catch::Contains(R"("gpu1" -> "gpu0")"));
  CHECK_THAT(dot, Catch::Contains(R"("gpu0" [shape=box, label="gpu0\nrank 0"];)"));
}

TEST_CASE("DOT clusters boxes and dashes network links") {
  std::string dot = ccforge::viz::topologyToDot(loadTopology("ndv2-2"));
  CHECK_THAT(dot, Catch::Contains("subgraph cluster_box1 {"));
  CHECK_THAT(dot, Catch::Contains(R"("b0.gpu0" -> "b1.gpu1" [label="12.5 GB/s", style=dashed];)"));
  std::string a100 = ccforge::viz::topologyToDot(loadTopology("a100-2"));
  CHECK_THAT(a100, Catch::Contains(R"("ib0" [shape=diamond];)"));
  CHECK_THAT(a100, Catch::Contains(R"("b0.nic0" [shape=hexagon];)"));
}
