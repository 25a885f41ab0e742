// The alpha-beta cost of synthesized points and the sizes where each point is the cheapest
// (src/synth/sccl/cost.cpp). Expected values are worked out by hand from T = S*alpha + (R/C)*m*beta.
#include <catch2/catch.hpp>

#include "topology/spec_reader.hpp"
#include "synth/sccl/cost.hpp"

using namespace ccforge;
using namespace ccforge::synth::sccl;
using topo::Rational;

namespace {

// DGX-1 allgather: alpha 0.7 us, one NVLink 25 GB/s (4e-5 us per byte), m = M/8.
CostModel dgx1Allgather() { return {.alphaUs = 0.7, .betaUsPerByte = 4e-5, .bytesPerChunkUnit = 8}; }

}  // namespace

TEST_CASE("cost model of the DGX-1: its link alpha, one NVLink's beta, m = M/N except for broadcast and reduce") {
  const topo::Topology t = topo::loadTopology("dgx1");
  const CostModel ag = costModel(t, semantics::CollectiveType::AllGather);
  CHECK(ag.alphaUs == Approx(0.7));
  CHECK(ag.betaUsPerByte == Approx(4e-5));
  CHECK(ag.bytesPerChunkUnit == 8);
  CHECK(costModel(t, semantics::CollectiveType::Broadcast).bytesPerChunkUnit == 1);
  CHECK(costModel(t, semantics::CollectiveType::Reduce).bytesPerChunkUnit == 1);
}

TEST_CASE("cost of (C,S,R) = (2,2,3) for 8 MB: 2 steps of alpha plus 3/2 of a 1 MB chunk over one link") {
  // 2 * 0.7 + 1.5 * 1e6 * 4e-5 = 1.4 + 60
  CHECK(costUs(dgx1Allgather(), {.steps = 2, .roundsPerChunk = Rational(3, 2)}, 8e6) == Approx(61.4));
}

TEST_CASE("size windows of SCCL's DGX-1 allgather frontier meet where the two costs are equal") {
  // (2,2,3) against (6,3,7): the extra step (0.7 us) pays for itself once (3/2 - 7/6) * M/8 * 4e-5
  // exceeds it, at M = 0.7 / (1/3 * 5e-6) = 420,000 bytes.
  const std::vector<CostPoint> frontier{{.steps = 2, .roundsPerChunk = Rational(3, 2)},
                                        {.steps = 3, .roundsPerChunk = Rational(7, 6)}};
  const auto windows = sizeWindows(dgx1Allgather(), frontier);
  REQUIRE(windows.size() == 2);
  REQUIRE(windows[0]);
  CHECK(windows[0]->low == 0);
  REQUIRE(windows[0]->high);
  CHECK(*windows[0]->high == Approx(420000));
  REQUIRE(windows[1]);
  CHECK(windows[1]->low == Approx(420000));
  CHECK_FALSE(windows[1]->high);
  CHECK(costUs(dgx1Allgather(), frontier[0], 420000) == Approx(costUs(dgx1Allgather(), frontier[1], 420000)));
}

TEST_CASE("size windows: a dominated point has none, and of two equal points the first keeps it") {
  const CostPoint slow{.steps = 2, .roundsPerChunk = Rational(3, 2)};
  const CostPoint fast{.steps = 2, .roundsPerChunk = Rational(7, 6)};
  const auto dominated = sizeWindows(dgx1Allgather(), {slow, fast});
  CHECK_FALSE(dominated[0]);
  REQUIRE(dominated[1]);
  CHECK(dominated[1]->low == 0);
  CHECK_FALSE(dominated[1]->high);
  const auto tied = sizeWindows(dgx1Allgather(), {fast, fast});
  CHECK(tied[0]);
  CHECK_FALSE(tied[1]);
}
