#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "support/topology_support.hpp"
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
  // Another rail: NCCL's PXN, over NVLink to the GPU on the receiver's rail, then its NIC.
  auto pxn = routeBetween(a100, 2, 11);
  REQUIRE(pxn);
  std::vector<std::string> via;
  for (int32_t id : pxn->links)
    via.push_back(a100.vertices()[static_cast<size_t>(a100.links()[static_cast<size_t>(id)].to)].name);
  CHECK(via == std::vector<std::string>{"b0.sw", "b0.gpu3", "b0.nic3", "ib3", "b1.nic3", "b1.gpu3"});
  CHECK(pxn->linkClass == topo::LinkClass::Network);
  CHECK(pxn->alphaUs == Approx(2.6));
  // The sender on the receiver's rail leaves through its own NIC.
  auto own = routeBetween(a100, 3, 11);
  REQUIRE(own);
  CHECK(own->links.size() == 4);
}

TEST_CASE("routes: without PXN a connection to another rail crosses the spine") {
  std::string spec(*topo::catalogSpec("a100-2"));
  spec.replace(spec.find("\"pxn\": true,"), 12, "");
  const topo::Topology t = topo::readTopology(spec, "a100-2-no-pxn.json", {});
  CHECK_FALSE(t.pxn);
  auto route = routeBetween(t, 2, 11);
  REQUIRE(route);
  std::vector<std::string> via;
  for (int32_t id : route->links)
    via.push_back(t.vertices()[static_cast<size_t>(t.links()[static_cast<size_t>(id)].to)].name);
  CHECK(via == std::vector<std::string>{"b0.nic2", "ib2", "spine", "ib3", "b1.nic3", "b1.gpu3"});
}

TEST_CASE("routes: the simulator reaches the one link between TE-CCL's ndv2-2 boxes through their GPUs") {
  const topo::Topology t = topo::loadTopology("ndv2-2");
  CHECK_FALSE(routeBetween(t, 7, 8));  // bounds and synthesis: b0.gpu7 has no link out of its box
  auto route = simulatorRoute(t, 7, 8);
  REQUIRE(route);
  std::vector<std::string> via;
  for (int32_t id : route->links)
    via.push_back(t.vertices()[static_cast<size_t>(t.links()[static_cast<size_t>(id)].to)].name);
  // gpu7 -> gpu3 -> gpu0 over NVLink (the cube-mesh: the first of the two-hop ways in link
  // order), the IB link, b1.gpu1 -> b1.gpu0.
  CHECK(via == std::vector<std::string>{"b0.gpu3", "b0.gpu0", "b1.gpu1", "b1.gpu0"});
  CHECK(route->linkClass == topo::LinkClass::Network);
  // Without PXN the simulator has no route either.
  std::string spec(*topo::catalogSpec("ndv2-2"));
  spec.replace(spec.find("\"pxn\": true,"), 12, "");
  CHECK_FALSE(simulatorRoute(topo::readTopology(spec, "ndv2-2-no-pxn.json", {}), 7, 8));
}

TEST_CASE("routes: mi250-1's xGMI fabric relays: gpu0 -> gpu2 crosses gpu1 and gpu9") {
  const topo::Topology mi250 = topo::loadTopology("mi250-1");
  auto names = [&](const Route& r) {
    std::vector<std::string> out;
    for (int32_t id : r.links) {
      const int32_t to = mi250.links()[static_cast<size_t>(id)].to;
      out.push_back(mi250.vertices()[static_cast<size_t>(to)].name);
    }
    return out;
  };
  // No direct link: the shortest ways are gpu1 then gpu9 or gpu10, gpu4 then gpu6, gpu8 then
  // gpu9, all three links with a 50 GB/s bottleneck; the lowest ids win.
  auto relayed = routeBetween(mi250, 0, 2);
  REQUIRE(relayed);
  CHECK(names(*relayed) == std::vector<std::string>{"gpu1", "gpu9", "gpu2"});
  CHECK(relayed->linkClass == LinkClass::NVLink);
  CHECK(relayed->alphaUs == 0);
  // gpu0 -> gpu5: through gpu1 (links of 200 and 50 GB/s) or gpu4 (100 and 200): the wider.
  auto wider = routeBetween(mi250, 0, 5);
  REQUIRE(wider);
  CHECK(names(*wider) == std::vector<std::string>{"gpu4", "gpu5"});
  // A direct link stays the route.
  auto direct = routeBetween(mi250, 0, 1);
  REQUIRE(direct);
  CHECK(names(*direct) == std::vector<std::string>{"gpu1"});
}

TEST_CASE("routes: the same xGMI graph without gpu_relay has no route where there is no direct link") {
  const topo::Topology plain = test::mi250WithoutRelay();
  CHECK_FALSE(plain.gpuRelay);
  CHECK_FALSE(routeBetween(plain, 0, 2));
  CHECK(routeBetween(plain, 0, 1));
}

TEST_CASE("routes: among equally short relayed routes the widest bottleneck, then the lowest ids") {
  // b and c both join a and d, b at 50 GB/s, c at 100; e hangs off a at 50 GB/s.
  const topo::Topology t = topo::readTopology(R"({"name": "diamond", "unit_GBps": 50, "gpu_relay": true,
    "vertices": [{"name": "a"}, {"name": "b"}, {"name": "c"}, {"name": "d"}, {"name": "e"}],
    "links": [{"from": "a", "to": "b", "bw": 1}, {"from": "b", "to": "d", "bw": 1},
              {"from": "a", "to": "c", "bw": 2}, {"from": "c", "to": "d", "bw": 2}, {"from": "a", "to": "e", "bw": 1}]})",
                                              "t.json", {});
  auto first = [&](const Route& r) { return t.links()[static_cast<size_t>(r.links.front())].to; };
  auto aToD = routeBetween(t, 0, 3);  // through c, the wider, though b has the lower id
  REQUIRE(aToD);
  CHECK(aToD->links.size() == 2);
  CHECK(first(*aToD) == *t.findVertex("c"));
  auto dToE = routeBetween(t, 3, 4);  // through b or c, then a and e: 50 GB/s either way, b first
  REQUIRE(dToE);
  CHECK(dToE->links.size() == 3);
  CHECK(first(*dToE) == *t.findVertex("b"));
}

TEST_CASE("routes: a relayed route passes GPUs only, never a GPU and a switch") {
  // a - b over a GPU-GPU link, b - s - c through a switch: a cannot reach c through b.
  const topo::Topology t = topo::readTopology(R"({"name": "mixed", "gpu_relay": true,
    "vertices": [{"name": "a"}, {"name": "b"}, {"name": "c"}, {"name": "s", "kind": "switch"}],
    "links": [{"from": "a", "to": "b", "bw": 1}, {"from": "b", "to": "s", "bw": 1}, {"from": "s", "to": "c", "bw": 1}]})",
                                              "t.json", {});
  CHECK_FALSE(routeBetween(t, 0, 2));
  CHECK(routeBetween(t, 1, 2));
}
