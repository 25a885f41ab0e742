#include <catch2/catch.hpp>

#include "topology/spec_reader.hpp"
#include "topology/routes.hpp"

using namespace ccforge;
using namespace ccforge::topo;

TEST_CASE("routes: direct links, through a switch, through NICs, never through a GPU") {
  topo::Topology dgx1 = topo::loadTopology("dgx1");
  auto direct = routeBetween(dgx1, 0, 1);
  REQUIRE(direct);
  CHECK(direct->links.size() == 1);
  CHECK(direct->alphaUs == Approx(0.7));
  CHECK_FALSE(routeBetween(dgx1, 0, 5));  // two NVLink hops: GPUs do not forward

  auto a100 = topo::loadTopology("a100-2");
  auto inBox = routeBetween(a100, 0, 3);
  REQUIRE(inBox);
  CHECK(inBox->links.size() == 2);
  CHECK(inBox->linkClass == topo::LinkClass::NVLink);
  auto across = routeBetween(a100, 2, 10);  // same rail: GPU, NIC, IB switch, NIC, GPU
  REQUIRE(across);
  CHECK(across->links.size() == 4);
  CHECK(across->linkClass == topo::LinkClass::Network);
  CHECK(across->alphaUs == Approx(2.6));
  CHECK_FALSE(routeBetween(a100, 2, 11));  // other rail
}
