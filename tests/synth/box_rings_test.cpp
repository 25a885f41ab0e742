// Rings inside boxes without a switch (src/synth/trees/box_rings.*, ring_programs.*): the MI250
// box gives six truncated rings that reach its allgather bound exactly, the lowering verifies and
// simulates near it, and boxes the construction does not fit are refused.
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <vector>

#include "driver/compile_and_verify.hpp"
#include "synth/trees/box_rings.hpp"
#include "synth/trees/ring_programs.hpp"
#include "synth/trees/routed_rate.hpp"
#include "synth/trees/tree_run.hpp"
#include "synth/trees/tree_synthesis.hpp"
#include "topology/spec_reader.hpp"

using namespace ccforge;
using namespace ccforge::synth::trees;
using topo::Rational;

namespace {

const Deadline kNoHurry(60);

// Undirected link units used by the rings, per local pair, and the box's units.
void checkRingsFitTheBox(const topo::Topology& t, const BoxRings& rings) {
  const std::vector<int32_t>& box = rings.boxes.front();
  const size_t n = box.size();
  std::map<std::pair<int32_t, int32_t>, int64_t> used;
  for (const std::vector<int32_t>& ring : rings.rings) {
    REQUIRE(ring.size() == n);
    CHECK(std::set<int32_t>(ring.begin(), ring.end()).size() == n);  // every GPU once
    for (size_t i = 0; i < n; ++i) ++used[{ring[i], ring[(i + 1) % n]}];
  }
  const Rational unit = 50;  // one xGMI link
  for (auto [pair, count] : used) {
    const std::optional<int32_t> link =
        t.findLink(t.gpus()[static_cast<size_t>(box[static_cast<size_t>(pair.first)])],
                   t.gpus()[static_cast<size_t>(box[static_cast<size_t>(pair.second)])]);
    REQUIRE(link);
    CHECK(Rational(count) <= t.links()[static_cast<size_t>(*link)].bandwidthGBps / unit);
  }
}

}  // namespace

TEST_CASE("rings: an MI250 box splits into six rings, truncated exactly at the package links") {
  const topo::Topology t = topo::loadTopology("mi250-1");
  const std::optional<BoxRings> rings = findBoxRings(t, kNoHurry);
  REQUIRE(rings);
  CHECK(rings->rings.size() == 6);  // 7 link units per GCD: three cycles, both directions
  checkRingsFitTheBox(t, *rings);
  // The GCDs of one package (0-1, 2-3, ...) follow each other in every ring; the one after the
  // other's piece comes back over the package link's spare unit.
  for (size_t r = 0; r < rings->rings.size(); ++r)
    for (size_t i = 0; i < 16; ++i) {
      const int32_t gcd = rings->rings[r][i], before = rings->rings[r][(i + 15) % 16];
      CHECK(rings->truncated[r][i] == ((gcd ^ 1) == before));
    }
  // One piece per ring and root: the rings reach the box's allgather bound, 2400/7 GB/s.
  const RingLowering even{.ownLanes = 1, .piecesPerRoot = 6};
  const Packing trees = ringPacking(*rings, even);
  CHECK(trees.trees.size() == 16 * 6);
  CHECK(routedRate(t, trees, false) * 16 == Rational(2400, 7));
  CHECK(depth(trees) == 15);
  // Without the truncation a hop into a package carries 15 pieces: 320 GB/s.
  BoxRings whole = *rings;
  for (std::vector<bool>& cut : whole.truncated) cut.assign(cut.size(), false);
  CHECK(routedRate(t, ringPacking(whole, even), false) * 16 == Rational(320));
}

TEST_CASE("rings: two MI250 boxes add the rail exchange; the fluid limit is the box's") {
  const topo::Topology t = topo::loadTopology("mi250-2");
  const std::optional<BoxRings> rings = findBoxRings(t, kNoHurry);
  REQUIRE(rings);
  REQUIRE(rings->boxes.size() == 2);
  CHECK(rings->rings.size() == 6);
  const Packing trees = ringPacking(*rings, {.ownLanes = 1, .otherLanes = 1, .piecesPerRoot = 6});
  CHECK(trees.trees.size() == 32 * 6);
  // Per tree: 14 or 15 hops and a shortcut in each box, plus the rail edge.
  for (const Arborescence& a : trees.trees) CHECK(a.edges.size() == 31);
  CHECK(routedRate(t, trees, false) * 32 == Rational(2400, 7));  // 96.8 % of mi250-2's 5312/15
}

TEST_CASE("rings: second entries move part of the other box's pieces onto the network") {
  const topo::Topology t = topo::loadTopology("mi250-2");
  const std::optional<BoxRings> rings = findBoxRings(t, kNoHurry);
  REQUIRE(rings);
  const RingLowering split{.ownLanes = 4, .otherLanes = 5, .secondEntries = true, .directionsShareChannels = true};
  // Three cycles share channels by direction: 3 x (4 own + 5 other + 1 for the second halves).
  CHECK(channelsPerLane(*rings, split) == 3);
  CHECK(ringChannels(*rings, split) == 30);
  CHECK(ringPiecesPerRoot(*rings, split) == 16);
  const Packing trees = ringPacking(*rings, split);
  // Every piece still reaches each of the 31 other GPUs once: one edge into each.
  CHECK(trees.trees.size() == 32 * 16);
  for (const Arborescence& a : trees.trees) {
    std::set<int32_t> reached;
    for (auto [from, to] : a.edges) CHECK(reached.insert(to).second);
    CHECK(reached.size() == 31);
    CHECK_FALSE(reached.contains(a.root));
  }
  // What leaves each GPU for the other box: its 16 pieces to the rail peer, and the first piece
  // of each of the 6 rings once more to the second entry.
  std::map<int32_t, int32_t> crossing;
  for (const Arborescence& a : trees.trees)
    for (auto [from, to] : a.edges)
      if ((from < 16) != (to < 16)) ++crossing[from];
  CHECK(crossing.size() == 32);
  for (auto [gpu, pieces] : crossing) CHECK(pieces == 16 + 6);
  // The box's narrowest links carry less, so the wires allow more than the rails alone (2400/7)
  // and no more than the bound (5312/15).
  const Rational wires = routedRate(t, trees, false) * 32;
  CHECK(wires > Rational(2400, 7));
  CHECK(wires <= Rational(5312, 15));
}

TEST_CASE("rings: boxes with a switch, or GPUs in no Hamiltonian cycle, have none") {
  CHECK_FALSE(findBoxRings(topo::loadTopology("a100-1"), kNoHurry));
  CHECK_FALSE(findBoxRings(topo::loadTopology("h100-2"), kNoHurry));
  topo::Topology star;
  star.name = "star";
  for (int32_t g = 0; g < 4; ++g)
    star.addVertex({.name = "g" + std::to_string(g), .kind = topo::VertexKind::Gpu, .box = 0, .where = {}});
  for (int32_t g = 1; g < 4; ++g)
    for (auto [a, b] : {std::pair{0, g}, std::pair{g, 0}})
      star.addLink(
          {.from = a, .to = b, .bandwidthGBps = 1, .alphaUs = 0, .linkClass = topo::LinkClass::NVLink, .where = {}});
  CHECK_FALSE(findBoxRings(star, kNoHurry));
}

TEST_CASE("rings: no more cycles than the runtime has channels for their rings") {
  // Four GPUs, every pair joined by 100 units: 150 cycles would fit, 16 (32 rings) are kept.
  topo::Topology wide;
  wide.name = "wide";
  for (int32_t g = 0; g < 4; ++g)
    wide.addVertex({.name = "g" + std::to_string(g), .kind = topo::VertexKind::Gpu, .box = 0, .where = {}});
  for (int32_t a = 0; a < 4; ++a)
    for (int32_t b = 0; b < 4; ++b)
      if (a != b)
        wide.addLink({.from = a,
                      .to = b,
                      .bandwidthGBps = (a + b == 1 ? 1 : 100),
                      .alphaUs = 0,
                      .linkClass = topo::LinkClass::NVLink,
                      .where = {}});
  const std::optional<BoxRings> rings = findBoxRings(wide, kNoHurry);
  REQUIRE(rings);
  CHECK(rings->rings.size() == 32);
}

TEST_CASE("rings: power-of-two pieces dealt evenly, the lowering verifies and simulates near the bound") {
  const topo::Topology t = topo::loadTopology("mi250-1");
  const std::optional<BoxRings> rings = findBoxRings(t, kNoHurry);
  REQUIRE(rings);
  CHECK(ringPiecesPerRoot(*rings, {.ownLanes = 3}) == 16);
  CHECK(ringPiecesPerRoot(*rings, {.ownLanes = 2}) == 8);
  CHECK(ringChannels(*rings, {.ownLanes = 3}) == 18);
  // Each root's 16 pieces, dealt 2 or 3 to a ring: within 2 % of the bound on the wires.
  const Packing trees = ringPacking(*rings, {.ownLanes = 3});
  std::map<int32_t, int64_t> perRoot;
  for (const Arborescence& a : trees.trees) ++perRoot[a.root];
  for (auto [root, pieces] : perRoot) CHECK(pieces == 16);
  CHECK(perRoot.size() == 16);
  CHECK(routedRate(t, trees, false) * 16 > Rational(98, 100) * Rational(2400, 7));
  const TreeSynthesis s = synthesizeTrees(t, semantics::CollectiveType::AllGather, {.composition = Composition::Rings});
  CHECK(s.compiled.algorithm.nchunksperloop == 16 * 16);
  CHECK(s.simulatedAlgbwGBps > 0.88 * 2400.0 / 7);
  CHECK(s.packedAlgbwGBps > Rational(98, 100) * Rational(2400, 7));
  const verify::FileReport report =
      driver::verifyCompiled(s.compiled.algorithm, std::string("allgather"), driver::Target{}, "rings.xml");
  CHECK(report.verdict == verify::Verdict::Verified);
  // The same schedule in place: no copy of a rank's own pieces (its input is its output share).
  REQUIRE(s.inPlace);
  const ir::Algorithm& inPlace = s.inPlace->algorithm;
  CHECK(inPlace.servesInPlace());
  CHECK_FALSE(inPlace.servesOutOfPlace());
  CHECK(s.compiled.algorithm.servesOutOfPlace());
  CHECK(inPlace.nchunksperloop == s.compiled.algorithm.nchunksperloop);
  CHECK(s.inPlace->stats.steps < s.compiled.stats.steps);
  const verify::FileReport inPlaceReport =
      driver::verifyCompiled(inPlace, std::string("allgather"), driver::Target{}, "rings-inplace.xml");
  CHECK(inPlaceReport.verdict == verify::Verdict::Verified);
}

TEST_CASE("rings: the composition takes allgather on boxes with rings, and is tried by default there") {
  const topo::Topology mi250 = topo::loadTopology("mi250-1");
  CHECK(compositionsOf({}, mi250, semantics::CollectiveType::AllGather) ==
        std::vector<Composition>{Composition::Packing, Composition::Rings});
  CHECK(compositionsOf({}, mi250, semantics::CollectiveType::ReduceScatter) ==
        std::vector<Composition>{Composition::Packing});
  CHECK(compositionsOf({}, topo::loadTopology("a100-2"), semantics::CollectiveType::AllGather) ==
        std::vector<Composition>{Composition::Packing, Composition::Hierarchical});
  CHECK(compositionsOf({}, topo::loadTopology("mi250-2"), semantics::CollectiveType::AllGather) ==
        std::vector<Composition>{Composition::Packing, Composition::Hierarchical, Composition::Rings,
                                 Composition::RingsSplit});
  CHECK_THROWS_WITH(
      synthesizeTrees(mi250, semantics::CollectiveType::AllGather, {.composition = Composition::RingsSplit}),
      Catch::Contains("second entries need several boxes"));
  CHECK_THROWS_WITH(
      synthesizeTrees(mi250, semantics::CollectiveType::ReduceScatter, {.composition = Composition::Rings}),
      Catch::Contains("the ring composition synthesizes allgather, not reducescatter"));
  CHECK_THROWS_WITH(synthesizeTrees(topo::loadTopology("a100-1"), semantics::CollectiveType::AllGather,
                                    {.composition = Composition::Rings}),
                    Catch::Contains("needs boxes whose GPUs are joined by direct links"));
}
