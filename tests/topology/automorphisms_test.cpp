#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <optional>
#include <set>

#include "topology/automorphisms.hpp"
#include "topology/boxes.hpp"
#include "topology/families.hpp"
#include "topology/spec_reader.hpp"

using namespace ccforge::topo;

namespace {

BigInt order(const Topology& t, Weighting w = Weighting::Weighted) {
  AutomorphismGroup g = automorphisms(t, w);
  CHECK(g.complete);
  return g.order;
}

// DGX-1 with its GPUs declared in another order (as nvidia-smi numbers them differently).
Topology relabelledDgx1() {
  const int name[8] = {5, 2, 7, 0, 3, 6, 1, 4};
  std::string vertices, links;
  for (int i = 0; i < 8; ++i)
    vertices += std::string(i ? "," : "") + "{\"name\": \"g" + std::to_string(name[i]) + "\"}";
  Topology dgx1 = loadTopology("dgx1");
  for (const Link& l : dgx1.links()) {
    if (l.from > l.to) continue;
    if (!links.empty()) links += ",";
    links += "{\"from\": \"g" + std::to_string(l.from) + "\", \"to\": \"g" + std::to_string(l.to) +
             "\", \"bw\": " + toString(l.bandwidthGBps / 25) + "}";
  }
  return readTopology("{\"name\": \"r\", \"unit_GBps\": 25, \"alpha_us\": 0.7, \"vertices\": [" + vertices +
                          "], \"links\": [" + links + "]}",
                      "r.json", {});
}

}  // namespace

TEST_CASE("DGX-1 has 4 weighted and 48 unweighted automorphisms, in any labelling") {
  Topology t = loadTopology("dgx1");
  CHECK(order(t) == 4);
  CHECK(order(t, Weighting::Unweighted) == 48);
  Topology r = relabelledDgx1();
  CHECK(r.vertices()[0].name == "g5");
  CHECK(order(r) == 4);
  CHECK(order(r, Weighting::Unweighted) == 48);
}

TEST_CASE("generators are automorphisms and orbits are unions of their cycles") {
  Topology t = loadTopology("dgx1");
  AutomorphismGroup g = automorphisms(t, Weighting::Weighted);
  REQUIRE_FALSE(g.generators.empty());
  for (const auto& p : g.generators) {
    std::set<int32_t> image(p.begin(), p.end());
    CHECK(image.size() == 8);
    for (const Link& l : t.links()) {
      auto mapped = t.findLink(p[static_cast<size_t>(l.from)], p[static_cast<size_t>(l.to)]);
      REQUIRE(mapped);
      CHECK(t.links()[static_cast<size_t>(*mapped)].bandwidthGBps == l.bandwidthGBps);
    }
    for (size_t v = 0; v < p.size(); ++v) CHECK(g.vertexOrbit[v] == g.vertexOrbit[static_cast<size_t>(p[v])]);
  }
  auto links = linkOrbits(t, g);
  for (size_t id = 0; id < links.size(); ++id)
    CHECK(t.links()[static_cast<size_t>(links[id])].bandwidthGBps == t.links()[id].bandwidthGBps);
}

TEST_CASE("automorphism group orders of the families") {
  CHECK(order(familyTopology(Family::Ring, {6})) == 12);
  CHECK(order(familyTopology(Family::Ring, {6}, true)) == 6);
  CHECK(order(familyTopology(Family::Line, {5})) == 2);
  CHECK(order(familyTopology(Family::Star, {5})) == 24);
  CHECK(order(familyTopology(Family::FullyConnected, {5})) == 120);
  CHECK(order(familyTopology(Family::Switch, {4})) == 24);
  CHECK(order(familyTopology(Family::Mesh, {3, 3})) == 8);
  CHECK(order(familyTopology(Family::Torus, {3, 3})) == 72);
  CHECK(order(familyTopology(Family::Torus, {4, 4})) == 384);  // C4 x C4 is the 4-cube
  CHECK(order(familyTopology(Family::Hypercube, {3})) == 48);
  CHECK(order(familyTopology(Family::Hypercube, {5})) == 3840);
}

TEST_CASE("catalog machines: A100 box 8!, two boxes on rails 2 * 8! (a rail permutation, the box swap)") {
  CHECK(order(loadTopology("a100-1")) == 40320);
  CHECK(order(loadTopology("a100-2")) == BigInt(2) * 40320);
  AutomorphismGroup g = automorphisms(loadTopology("a100-2"), Weighting::Weighted);
  std::set<int32_t> gpuOrbits;
  Topology t = loadTopology("a100-2");
  for (int32_t gpu : t.gpus()) gpuOrbits.insert(g.vertexOrbit[static_cast<size_t>(gpu)]);
  CHECK(gpuOrbits.size() == 1);
}

TEST_CASE("the search stops at its limit and reports a lower bound") {
  Topology t = familyTopology(Family::FullyConnected, {40});
  AutomorphismGroup g = automorphisms(t, Weighting::Weighted, 10);
  CHECK_FALSE(g.complete);
  CHECK(g.order >= 1);
}

// Box rotation (boxes.hpp): the candidate symmetry of machines built from boxes, checked here
// as the bounds use it (cut_bounds.hpp allGatherSinks) where the search stops at its work limit.
TEST_CASE("the box rotation of a100-2 is an automorphism; moved alone, one GPU is not") {
  const Topology t = loadTopology("a100-2");
  const std::optional<std::vector<int32_t>> rotation = boxRotation(t);
  REQUIRE(rotation);
  CHECK(isAutomorphism(t, *rotation, Weighting::Weighted));
  const int32_t gpu0 = *t.findVertex("b0.gpu0"), other = *t.findVertex("b1.gpu0");
  CHECK((*rotation)[static_cast<size_t>(gpu0)] == other);
  CHECK((*rotation)[static_cast<size_t>(other)] == gpu0);
  CHECK((*rotation)[static_cast<size_t>(*t.findVertex("ib0"))] == *t.findVertex("ib0"));
  std::vector<int32_t> swap(t.vertices().size());
  std::iota(swap.begin(), swap.end(), 0);
  std::swap(swap[static_cast<size_t>(gpu0)], swap[static_cast<size_t>(other)]);
  CHECK_FALSE(isAutomorphism(t, swap, Weighting::Weighted));
}

TEST_CASE("a box rotation that changes a bandwidth is an automorphism only unweighted") {
  const Topology t = readTopology(R"({"name": "uneven", "unit_GBps": 1,
    "vertices": [{"name": "b0.g0", "box": 0}, {"name": "b0.g1", "box": 0},
                 {"name": "b1.g0", "box": 1}, {"name": "b1.g1", "box": 1}],
    "links": [{"from": "b0.g0", "to": "b0.g1", "bw": 2}, {"from": "b1.g0", "to": "b1.g1", "bw": 3},
              {"from": "b0.g0", "to": "b1.g0", "bw": 1}, {"from": "b0.g1", "to": "b1.g1", "bw": 1}]})",
                                  "uneven.json", {});
  const std::optional<std::vector<int32_t>> rotation = boxRotation(t);
  REQUIRE(rotation);
  CHECK_FALSE(isAutomorphism(t, *rotation, Weighting::Weighted));
  CHECK(isAutomorphism(t, *rotation, Weighting::Unweighted));
  CHECK_FALSE(boxRotation(loadTopology("dgx1")));  // one box: nothing to rotate
}
