// The hierarchical composition on many boxes (src/synth/trees/hierarchical.hpp): the rail
// exchange as a chain forked at the root, so that every GPU talks to its box mates and its two
// rail neighbours only, while every NIC still carries boxes - 1 pieces per root each way; the
// star only where a GPU's peers fit a channel's thread blocks. The trees are checked here; the
// synthesis at 256 GPUs is an e2e test (tests/e2e/synth_trees.cmake).
#include <catch2/catch.hpp>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "semantics/protocol.hpp"
#include "synth/bounds/bounds.hpp"
#include "synth/bounds/cut_bounds.hpp"
#include "synth/trees/hierarchical.hpp"
#include "topology/machine_import.hpp"
#include "topology/spec_reader.hpp"

using namespace ccforge;
using namespace ccforge::synth::trees;

namespace {

// 32 copies of a real HGX H100 box (tests/fixtures/topology-dumps/README.md names its source),
// rail-optimized as `topo import --boxes 32 --fabric rail` builds it: ranks box by box.
topo::Topology h100Boxes(int32_t boxes) {
  const topo::ImportedBox box =
      topo::readMachineFile(std::string(CCFORGE_FIXTURES) + "/topology-dumps/h100-ibm-cloud-gx3d.xml");
  topo::ImportOptions options;
  options.name = "h100-rails";
  options.boxes = boxes;
  const topo::ImportResult r = topo::buildImportedSpec({box}, options);
  return topo::readTopology(r.specJson, "h100-rails.json", {});
}

struct TreeShape {
  int32_t depth = 0;
  std::set<int32_t> reached;
};

TreeShape shapeOf(const Arborescence& t) {
  std::map<int32_t, int32_t> depthOf{{t.root, 0}};
  TreeShape s;
  s.reached.insert(t.root);
  for (auto [u, w] : t.edges) {
    REQUIRE(depthOf.count(u) == 1);  // parents are listed before their children
    depthOf[w] = depthOf[u] + 1;
    s.depth = std::max(s.depth, depthOf[w]);
    s.reached.insert(w);
  }
  return s;
}

}  // namespace

TEST_CASE("hierarchical on 32 boxes: a forked rail chain, every GPU talks to 9 peers, every NIC carries 31 pieces") {
  const topo::Topology t = h100Boxes(32);
  // The star would give a GPU 7 + 31 peers, more than a channel's 32 thread blocks.
  CHECK(railShapes(t, semantics::kMaxPeersPerChannel) == std::vector<RailShape>{RailShape::Chain});
  const Packing p = hierarchicalTrees(t, RailShape::Chain);
  REQUIRE(p.trees.size() == 256);
  std::map<int32_t, std::set<int32_t>> sendsTo;
  std::map<std::pair<int32_t, int32_t>, int32_t> railLoad;  // (from, to) across boxes -> trees
  for (const Arborescence& tree : p.trees) {
    const TreeShape s = shapeOf(tree);
    CHECK(s.reached.size() == 256);
    CHECK(tree.edges.size() == 255);
    // 16 rail hops ahead, then the last rail peer's box: 17 levels.
    CHECK(s.depth == 17);
    for (auto [u, w] : tree.edges) {
      sendsTo[u].insert(w);
      if (u / 8 != w / 8) {
        CHECK(u % 8 == w % 8);  // across boxes only on the rail
        ++railLoad[{u, w}];
      }
    }
  }
  for (const auto& [gpu, peers] : sendsTo) {
    INFO("GPU " << gpu);
    CHECK(peers.size() == 9);
  }
  // Each GPU sends to its two rail neighbours; what it sends over them is 31 trees in all,
  // as in the star (16 ahead, 15 behind).
  std::map<int32_t, int32_t> nicSends;
  for (const auto& [pair, trees] : railLoad) nicSends[pair.first] += trees;
  REQUIRE(nicSends.size() == 256);
  for (const auto& [gpu, trees] : nicSends) CHECK(trees == 31);
}

TEST_CASE("hierarchical on 4 boxes: the star fits as well, depth 2, rail peers straight from the root") {
  const topo::Topology t = topo::loadTopology("a100-4");
  CHECK(railShapes(t, semantics::kMaxPeersPerChannel) == std::vector<RailShape>{RailShape::Star, RailShape::Chain});
  CHECK(railShapes(topo::loadTopology("a100-2"), semantics::kMaxPeersPerChannel) ==
        std::vector<RailShape>{RailShape::Star});
  const Packing p = hierarchicalTrees(t, RailShape::Star);
  REQUIRE(p.trees.size() == 32);
  for (const Arborescence& tree : p.trees) {
    CHECK(shapeOf(tree).depth == 2);
    int32_t fromRoot = 0;
    for (auto [u, w] : tree.edges) fromRoot += u == tree.root && u / 8 != w / 8 ? 1 : 0;
    CHECK(fromRoot == 3);
  }
}

TEST_CASE("the allgather bound of 32 H100 boxes on rails: one max-flow per GPU of a box, the NICs' cut") {
  // The box rotation is a symmetry (topology/boxes.hpp), so the GPUs of box 0 are the sinks.
  // The cut is a box's 8 NICs of 25 GB/s receiving the 31 other boxes' 8 chunks: 25 x 256 / 31.
  const topo::Topology t = h100Boxes(32);
  const std::vector<int32_t> sinks = synth::allGatherSinks(t);
  REQUIRE(sinks.size() == 8);
  for (int32_t g : sinks) CHECK(t.vertices()[static_cast<size_t>(g)].name.rfind("b0.", 0) == 0);
  CHECK(synth::collectiveBound(t, semantics::CollectiveType::AllGather).algbwUpperBoundGBps ==
        topo::Rational(25 * 256, 31));
  CHECK(synth::collectiveBound(t, semantics::CollectiveType::ReduceScatter).algbwUpperBoundGBps ==
        topo::Rational(25 * 256, 31));
}
