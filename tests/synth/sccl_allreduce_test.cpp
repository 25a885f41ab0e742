// Allreduce by SMT synthesis: reducescatter then allgather, instance (C, 2S, 2R) with both phases
// (C, S, R). Expected verdicts follow from the phases' (SCCL, PPoPP'21: DGX-1 allgather; the
// DGX-1's links are symmetric, so its reducescatter has the same verdicts) or from hand
// arguments stated next to each case; never from this code.
#include <catch2/catch.hpp>

#include "topology/spec_reader.hpp"
#include "synth/sccl/emit.hpp"
#include "synth/sccl/search.hpp"
#include "sccl_test_support.hpp"

using namespace ccforge;
using namespace ccforge::synth::sccl;
using ccforge::testing::family;
using ccforge::testing::points;
using ccforge::testing::quiet;

namespace {

// The program an allreduce point lowers to compiles and verifies (allreduce postcondition).
void checkVerifies(Synthesizer& synth, const InstanceResult& r) {
  REQUIRE(r.schedule);
  REQUIRE(r.allgatherPhase);
  CHECK(r.schedule->steps * 2 == r.steps);
  CHECK(r.allgatherPhase->steps * 2 == r.steps);
  CHECK(r.schedule->rounds() + r.allgatherPhase->rounds() == r.rounds);
  Emitted e = emitVerifiedAllReduce(synth.problem(r.chunks, semantics::CollectiveType::ReduceScatter), *r.schedule,
                                    synth.problem(r.chunks, semantics::CollectiveType::AllGather), *r.allgatherPhase,
                                    "test", ir::Protocol::Simple, "test.xml");
  INFO(e.error);
  CHECK(e.verified());
}

Verdict decide(const topo::Topology& t, int32_t chunks, int32_t steps, int32_t rounds) {
  Synthesizer synth(t, semantics::CollectiveType::AllReduce, 0, quiet());
  InstanceResult r = synth.solve(chunks, steps, rounds);
  if (r.verdict == Verdict::Sat) checkVerifies(synth, r);
  return r.verdict;
}

}  // namespace

// Bidirectional ring of 4: allgather (2,2,3) and (1,2,2) are sat (sccl_test.cpp's hand argument);
// the ring's reversed links are its links, so reducescatter is sat at the same instances.
TEST_CASE("allreduce ring of 4: (2,4,6) and (1,4,4) are sat and verify") {
  const topo::Topology ring = family(topo::Family::Ring, 4);
  CHECK(decide(ring, 2, 4, 6) == Verdict::Sat);
  CHECK(decide(ring, 1, 4, 4) == Verdict::Sat);
}

// Each phase needs the diameter, 2 steps, so allreduce needs 4; (1,2,2) is pruned.
TEST_CASE("allreduce ring of 4: fewer steps than twice the diameter is pruned") {
  Synthesizer synth(family(topo::Family::Ring, 4), semantics::CollectiveType::AllReduce, 0, quiet());
  CHECK(synth.bound().stepsLowerBound == 4);
  CHECK(synth.solve(1, 2, 2).verdict == Verdict::Pruned);
}

// Fully connected 4, one unit per link: each phase is (1,1,1), meeting its bounds (1 step, 1
// round per chunk), so the allreduce frontier is the single point (1,2,2).
TEST_CASE("allreduce fully connected 4: the Pareto frontier is the single point (1,2,2)") {
  Synthesizer synth(family(topo::Family::FullyConnected, 4), semantics::CollectiveType::AllReduce, 0, quiet());
  SearchResult r = paretoSearch(synth, {});
  CHECK(r.complete);
  REQUIRE(points(r) == std::vector<std::tuple<int32_t, int32_t, int32_t>>{{1, 2, 2}});
  checkVerifies(synth, r.frontier[0]);
}

// SCCL: DGX-1 allgather (2,2,3) sat and (3,2,4) unsat; reducescatter alike (symmetric links).
TEST_CASE("allreduce dgx1: (2,4,6) sat and verifies, (3,4,8) unsat") {
  const topo::Topology dgx1 = topo::loadTopology("dgx1");
  CHECK(decide(dgx1, 2, 4, 6) == Verdict::Sat);
  CHECK(decide(dgx1, 3, 4, 8) == Verdict::Unsat);
}

// DGX-1 allgather and reducescatter bounds: 2 steps, 7/6 rounds per chunk (docs/bounds.md).
TEST_CASE("allreduce dgx1: bounds are twice the phases', and prune") {
  Synthesizer synth(topo::loadTopology("dgx1"), semantics::CollectiveType::AllReduce, 0, quiet());
  CHECK(synth.bound().stepsLowerBound == 4);
  CHECK(synth.bound().roundsPerChunkLowerBound == topo::Rational(7, 3));
  const InstanceResult low = synth.solve(6, 4, 12);  // 12/6 < 7/3
  CHECK(low.verdict == Verdict::Pruned);
  CHECK(low.seconds == 0);
}

TEST_CASE("allreduce instances with odd steps or rounds are rejected") {
  Synthesizer synth(topo::loadTopology("dgx1"), semantics::CollectiveType::AllReduce, 0, quiet());
  CHECK_THROWS_WITH(synth.solve(2, 5, 6), Catch::Contains("must be even"));
  CHECK_THROWS_WITH(synth.solve(2, 4, 7), Catch::Contains("must be even"));
}
