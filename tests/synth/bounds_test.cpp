#include <catch2/catch.hpp>

#include "base/input_error.hpp"
#include "topology/catalog.hpp"
#include "topology/families.hpp"
#include "topology/spec_reader.hpp"
#include "synth/bounds/bounds.hpp"
#include "synth/bounds/cut_bounds.hpp"

using namespace ccforge;
using namespace ccforge::synth;
using topo::Rational;

namespace {

Rational rounds(const topo::Topology& t, semantics::CollectiveType c, int32_t root = 0) {
  return collectiveBound(t, c, root).roundsPerChunkLowerBound;
}

}  // namespace

TEST_CASE("ring: allgather needs (N-1)/2 rounds, alltoall N rounds, broadcast 1/2") {
  topo::Topology ring = topo::familyTopology(topo::Family::Ring, {8});
  CHECK(rounds(ring, semantics::CollectiveType::AllGather) == Rational(7, 2));
  CHECK(rounds(ring, semantics::CollectiveType::AllToAll) == 8);
  CHECK(rounds(ring, semantics::CollectiveType::Broadcast) == Rational(1, 2));
  CHECK(collectiveBound(ring, semantics::CollectiveType::AllGather).algbwUpperBoundGBps == Rational(16, 7));
  CHECK(collectiveBound(ring, semantics::CollectiveType::AllGather).stepsLowerBound == 4);
  topo::Topology oneWay = topo::familyTopology(topo::Family::Ring, {8}, true);
  CHECK(rounds(oneWay, semantics::CollectiveType::AllGather) == 7);
  CHECK(collectiveBound(oneWay, semantics::CollectiveType::AllGather).stepsLowerBound == 7);
}

TEST_CASE("hypercube, fully connected, star, switch and line") {
  CHECK(rounds(topo::familyTopology(topo::Family::Hypercube, {3}), semantics::CollectiveType::AllToAll) == 4);
  CHECK(rounds(topo::familyTopology(topo::Family::Hypercube, {3}), semantics::CollectiveType::AllGather) ==
        Rational(7, 3));
  CHECK(rounds(topo::familyTopology(topo::Family::FullyConnected, {5}), semantics::CollectiveType::AllToAll) == 1);
  CHECK(rounds(topo::familyTopology(topo::Family::FullyConnected, {5}), semantics::CollectiveType::AllGather) == 1);
  CHECK(rounds(topo::familyTopology(topo::Family::Star, {5}), semantics::CollectiveType::AllGather) == 4);
  CHECK(rounds(topo::familyTopology(topo::Family::Star, {5}), semantics::CollectiveType::AllToAll) == 4);
  CHECK(rounds(topo::familyTopology(topo::Family::Switch, {4}), semantics::CollectiveType::AllToAll) == 3);
  // A line of 6: the middle link carries 3 x 3 pairs each way.
  CHECK(rounds(topo::familyTopology(topo::Family::Line, {6}), semantics::CollectiveType::AllToAll) == 9);
  CHECK(rounds(topo::familyTopology(topo::Family::Line, {6}), semantics::CollectiveType::Scatter, 0) == 5);
}

TEST_CASE("rooted bounds follow the root's routes") {
  topo::Topology t = topo::loadTopology("ndv2-2");
  CHECK(collectiveBound(t, semantics::CollectiveType::Broadcast, 0).stepsLowerBound == 3);
  CHECK(collectiveBound(t, semantics::CollectiveType::Broadcast, 0).algbwUpperBoundGBps == Rational(25, 2));
  CHECK(collectiveBound(t, semantics::CollectiveType::Gather, 0).root == 0);
  CHECK(collectiveBound(t, semantics::CollectiveType::AllGather).root == -1);
}

TEST_CASE("nonsensical requests are refused with a message") {
  topo::Topology dgx1 = topo::loadTopology("dgx1");
  CHECK_THROWS_WITH(collectiveBound(dgx1, semantics::CollectiveType::Broadcast, 8),
                    Catch::Contains("root 8 is out of range: topology dgx1 has ranks 0 to 7"));
  CHECK_THROWS_WITH(collectiveBound(dgx1, semantics::CollectiveType::Reduce, -1),
                    Catch::Contains("root -1 is out of range"));
  CHECK_THROWS_WITH(collectiveBound(dgx1, semantics::CollectiveType::Custom),
                    Catch::Contains("no exact bound for custom"));
  CHECK_THROWS_AS(collectiveBound(topo::familyTopology(topo::Family::Ring, {1}), semantics::CollectiveType::AllGather),
                  std::invalid_argument);
}

TEST_CASE("a disconnected topology has no bound: an input error naming the pair") {
  topo::Topology t = topo::readTopology(R"({"name": "split", "vertices": [{"name": "a"}, {"name": "b"}, {"name": "c"}],
    "links": [{"from": "a", "to": "b", "bw": 1}, {"from": "b", "to": "c", "bw": 1, "directed": true}]})",
                                        "split.json", {});
  CHECK_THROWS_WITH(collectiveBound(t, semantics::CollectiveType::AllGather),
                    Catch::Contains("split.json: c cannot reach a, so allgather cannot complete"));
  CHECK_THROWS_AS(collectiveBound(t, semantics::CollectiveType::AllToAll), base::InputError);
  // Broadcast from a only needs a to reach everyone.
  CHECK(collectiveBound(t, semantics::CollectiveType::Broadcast, 0).algbwUpperBoundGBps == 1);
  CHECK_THROWS_AS(collectiveBound(t, semantics::CollectiveType::Broadcast, 2), base::InputError);
}

TEST_CASE("an alltoall LP beyond the row limit gives way to the cut bound, not a long wait") {
  // A line of 1000 GPUs whose links all differ: no symmetry, so 1000 source rows and 1998
  // link rows.
  topo::Topology t;
  for (int i = 0; i < 1000; ++i) {
    topo::Vertex v;
    v.name = std::to_string(i);  // not "g" + ...: GCC 12 warns falsely (-Wrestrict) there
    t.addVertex(v);
  }
  for (int i = 0; i + 1 < 1000; ++i) {
    t.addLink({i, i + 1, Rational(i + 1), 0, topo::LinkClass::NVLink, {}});
    t.addLink({i + 1, i, Rational(i + 1), 0, topo::LinkClass::NVLink, {}});
  }
  const CollectiveBound b = collectiveBound(t, semantics::CollectiveType::AllToAll);
  CHECK_THAT(b.method, Catch::Contains("cut bound, as the exact LP is past its size (the alltoall LP has 2998 rows "
                                       "after symmetry reduction, more than 2000)"));
  // By hand: GPU 0 sends a chunk to each of 999 GPUs over its one link of 1 unit; no other GPU
  // or box cut is tighter (the one box holds every GPU).
  CHECK(b.algbwUpperBoundGBps == Rational(1000, 999));
}

TEST_CASE("the alltoall cut bound equals the exact LP on rail-optimized boxes") {
  // 8 A100 boxes: each box sends 8 x 56 chunks through its 8 NICs of 25 GB/s: 200/7 GB/s.
  const topo::Topology a100 = topo::loadTopology("a100-8");
  const CollectiveBound lp = collectiveBound(a100, semantics::CollectiveType::AllToAll);
  CHECK_THAT(lp.method, Catch::Contains("exact LP"));
  CHECK(lp.algbwUpperBoundGBps == Rational(200, 7));
  CHECK(allToAllCutRate(a100) * Rational(64) == Rational(200, 7));
  // On a switch of 4 GPUs (one unit each way) the single-GPU cut gives 1 / 3 per chunk.
  CHECK(allToAllCutRate(topo::familyTopology(topo::Family::Switch, {4})) == Rational(1, 3));
}

// By hand: a line of 4 GPUs, links of one unit. The allgather cut {gpu0, gpu1, gpu2} has one link
// out for 3 GPUs: x = 1/3, 3 rounds per chunk, 3 steps; reducescatter the same reversed.
// Allreduce as RS + AG: 6 steps, 6 rounds per chunk, algbw N x / 2 = 2/3 unit.
TEST_CASE("allreduce is bounded as reducescatter + allgather") {
  const topo::Topology line = topo::familyTopology(topo::Family::Line, {4});
  const CollectiveBound b = collectiveBound(line, semantics::CollectiveType::AllReduce);
  CHECK(b.stepsLowerBound == 6);
  CHECK(b.roundsPerChunkLowerBound == Rational(6));
  CHECK(b.algbwUpperBoundGBps == Rational(2, 3));
  CHECK(b.root == -1);
}

TEST_CASE("a topology past the work limit is refused before any max-flow") {
  const topo::Topology ring = topo::familyTopology(topo::Family::Ring, {4096});
  CHECK_THROWS_WITH(collectiveBound(ring, semantics::CollectiveType::AllGather),
                    Catch::Contains("over ccforge's work limit of 2^28"));
  CHECK_THROWS_AS(collectiveBound(ring, semantics::CollectiveType::AllGather), std::invalid_argument);
}

// Where the NVSwitches reduce (NVLS), allreduce is not bounded by reducescatter + allgather: each
// GPU sends its buffer to the switch once and takes the result once. The measured 466 GB/s busbw
// of an H100 box (tests/fixtures/nccl-tests-logs/h100-1x8-allreduce-nccl2.29.txt), algbw
// 466 x 8/14 = 266, exceeds 1800/7 = 257 but not 450.
TEST_CASE("the in-switch allreduce bound: a GPU's switch link in one box, the box's network across boxes") {
  const std::optional<CollectiveBound> one = inSwitchAllReduceBound(topo::loadTopology("h100-1"));
  REQUIRE(one);
  CHECK(one->inSwitch);
  CHECK(one->collective == semantics::CollectiveType::AllReduce);
  CHECK(one->algbwUpperBoundGBps == 450);
  CHECK(one->stepsLowerBound == 1);
  CHECK(collectiveBound(topo::loadTopology("h100-1"), semantics::CollectiveType::AllReduce).algbwUpperBoundGBps ==
        Rational(1800, 7));
  // Two boxes: 8 NICs of 50 GB/s per box, x 2 / (2 x 1) = 400, below the switch link's 450.
  const std::optional<CollectiveBound> two = inSwitchAllReduceBound(topo::loadTopology("h100-2"));
  REQUIRE(two);
  CHECK(two->algbwUpperBoundGBps == 400);
  // No NVLS: A100 boxes, and H100 specs that say so.
  CHECK_FALSE(inSwitchAllReduceBound(topo::loadTopology("a100-1")));
  std::string spec(*topo::catalogSpec("h100-1"));
  spec.replace(spec.find("\"nvls\": true"), 12, "\"nvls\": false");
  CHECK_FALSE(inSwitchAllReduceBound(topo::readTopology(spec, "h100-no-nvls.json", {})));
}
