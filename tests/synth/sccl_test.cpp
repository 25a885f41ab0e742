// SMT synthesis in SCCL's model. Expected verdicts come from the literature (SCCL, PPoPP'21:
// DGX-1 allgather) or from hand arguments stated next to each case; never from this code.
#include <catch2/catch.hpp>

#include <tuple>

#include "ir/writer.hpp"
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

// Solves one instance and, when sat, checks that the program it lowers to verifies.
Verdict decide(const topo::Topology& t, semantics::CollectiveType c, int32_t chunks, int32_t steps, int32_t rounds,
               int32_t root = 0, SynthOptions options = quiet()) {
  Synthesizer synth(t, c, root, options);
  InstanceResult r = synth.solve(chunks, steps, rounds);
  if (r.verdict == Verdict::Sat) {
    REQUIRE(r.schedule);
    CHECK(r.schedule->steps == steps);
    CHECK(r.schedule->rounds() == rounds);
    Emitted e = emitVerified(synth.problem(chunks), *r.schedule, "test", ir::Protocol::Simple, "test.xml");
    INFO(e.error);
    CHECK(e.verified());
  }
  return r.verdict;
}

}  // namespace

// Bidirectional ring of 4, allgather: diameter 2; bound (N-1)/2 = 3/2 rounds per chunk. With C=2
// each rank sends both halves both ways in step 1 (2 chunks per link) and forwards one half of
// its far neighbour's chunk in step 2 (1 per link): (2,2,3). With C=1 one chunk per link per step.
TEST_CASE("ring of 4: allgather (2,2,3) and (1,2,2) are sat and verify") {
  const topo::Topology ring = family(topo::Family::Ring, 4);
  CHECK(decide(ring, semantics::CollectiveType::AllGather, 2, 2, 3) == Verdict::Sat);
  CHECK(decide(ring, semantics::CollectiveType::AllGather, 1, 2, 2) == Verdict::Sat);
}

// Line 0-1-2-3: the cut before rank 3 carries 3 chunks, so 3 rounds per chunk and 3 steps are
// needed; rank 2 passes chunk 2, 1, 0 to rank 3 in steps 1, 2, 3 (and symmetrically).
TEST_CASE("line of 4: allgather (1,3,3) sat, (1,2,3) pruned by the steps bound") {
  const topo::Topology line = family(topo::Family::Line, 4);
  CHECK(decide(line, semantics::CollectiveType::AllGather, 1, 3, 3) == Verdict::Sat);
  CHECK(decide(line, semantics::CollectiveType::AllGather, 1, 2, 3) == Verdict::Pruned);
}

// SCCL (PPoPP'21, and targets.md): DGX-1 allgather (2,2,3) sat, (3,2,4) unsat.
TEST_CASE("dgx1: allgather (2,2,3) sat, (3,2,4) unsat, as SCCL found") {
  const topo::Topology dgx1 = topo::loadTopology("dgx1");
  CHECK(decide(dgx1, semantics::CollectiveType::AllGather, 2, 2, 3) == Verdict::Sat);
  CHECK(decide(dgx1, semantics::CollectiveType::AllGather, 3, 2, 4) == Verdict::Unsat);
}

// All ten instance verdicts of SCCL's DGX-1 allgather Pareto search (targets.md).
TEST_CASE("dgx1: every allgather verdict SCCL reports") {
  const topo::Topology dgx1 = topo::loadTopology("dgx1");
  for (auto [c, s, r] : {std::tuple{1, 2, 2}, {2, 2, 3}, {3, 3, 4}, {4, 3, 5}, {5, 3, 6}, {6, 3, 7}}) {
    INFO("(" << c << "," << s << "," << r << ") is sat");
    CHECK(decide(dgx1, semantics::CollectiveType::AllGather, c, s, r) == Verdict::Sat);
  }
  for (auto [c, s, r] : {std::tuple{3, 2, 4}, {4, 2, 5}, {5, 2, 6}, {6, 2, 7}}) {
    INFO("(" << c << "," << s << "," << r << ") is unsat");
    CHECK(decide(dgx1, semantics::CollectiveType::AllGather, c, s, r) == Verdict::Unsat);
  }
}

TEST_CASE("dgx1: cvc5 agrees on allgather (2,2,3) sat") {
  SynthOptions o = quiet();
  o.solver = smt::SolverKind::Cvc5;
  CHECK(decide(topo::loadTopology("dgx1"), semantics::CollectiveType::AllGather, 2, 2, 3, 0, o) == Verdict::Sat);
}

// Reducescatter is allgather's dual: the same (C,S,R) on the DGX-1, whose links are symmetric.
TEST_CASE("dgx1: reducescatter (2,2,3) sat and its reversed schedule verifies") {
  CHECK(decide(topo::loadTopology("dgx1"), semantics::CollectiveType::ReduceScatter, 2, 2, 3) == Verdict::Sat);
}

// Bounds: DGX-1 allgather needs 2 steps and 7/6 rounds per chunk (docs/bounds.md).
TEST_CASE("instances below the bounds are pruned without a solver call") {
  Synthesizer synth(topo::loadTopology("dgx1"), semantics::CollectiveType::AllGather, 0, quiet());
  const InstanceResult low = synth.solve(6, 2, 6);  // 6/6 < 7/6
  CHECK(low.verdict == Verdict::Pruned);
  CHECK(low.seconds == 0);
  CHECK(synth.solve(1, 1, 1).verdict == Verdict::Pruned);  // 1 step < diameter 2
}

TEST_CASE("nonsensical requests are rejected with a message") {
  const topo::Topology dgx1 = topo::loadTopology("dgx1");
  CHECK_THROWS_AS(Synthesizer(dgx1, semantics::CollectiveType::Broadcast, 8, quiet()), std::invalid_argument);
  CHECK_THROWS_AS(Synthesizer(dgx1, semantics::CollectiveType::Custom, 0, quiet()), std::invalid_argument);
  Synthesizer alltoall(dgx1, semantics::CollectiveType::AllToAll, 0, quiet());
  CHECK_THROWS_WITH(alltoall.solve(3, 2, 3), Catch::Contains("multiple of the number of GPUs"));
  Synthesizer allgather(dgx1, semantics::CollectiveType::AllGather, 0, quiet());
  CHECK_THROWS_WITH(allgather.solve(1, 3, 2), Catch::Contains("at least steps"));
  CHECK_THROWS_AS(Synthesizer(family(topo::Family::Ring, 1), semantics::CollectiveType::AllGather, 0, quiet()),
                  std::invalid_argument);
}

// Fully connected 4 GPUs, one unit per link: every rank sends directly in one step, one chunk
// per link, which meets both bounds (1 step, 1 round per chunk).
TEST_CASE("fully connected 4: the Pareto frontier is the single point (1,1,1)") {
  Synthesizer synth(family(topo::Family::FullyConnected, 4), semantics::CollectiveType::AllGather, 0, quiet());
  SearchResult r = paretoSearch(synth, {});
  CHECK(r.complete);
  CHECK(points(r) == std::vector<std::tuple<int32_t, int32_t, int32_t>>{{1, 1, 1}});
}

// One step, direct links, one chunk per link: gather, scatter and alltoall on 4 fully connected
// GPUs; broadcast and reduce on the ring of 4 take 2 steps (root to neighbours, then across).
TEST_CASE("rooted collectives and alltoall on small topologies verify") {
  const topo::Topology fc = family(topo::Family::FullyConnected, 4), ring = family(topo::Family::Ring, 4);
  CHECK(decide(fc, semantics::CollectiveType::Gather, 1, 1, 1, 0) == Verdict::Sat);
  CHECK(decide(fc, semantics::CollectiveType::Scatter, 1, 1, 1, 2) == Verdict::Sat);
  CHECK(decide(fc, semantics::CollectiveType::AllToAll, 4, 1, 1) == Verdict::Sat);
  CHECK(decide(ring, semantics::CollectiveType::Broadcast, 1, 2, 2, 1) == Verdict::Sat);
  CHECK(decide(ring, semantics::CollectiveType::Reduce, 1, 2, 2, 3) == Verdict::Sat);
}

TEST_CASE("symmetry breaking keeps verdicts: ring of 4 and DGX-1 allgather with and without") {
  const topo::Topology ring = family(topo::Family::Ring, 4);
  SynthOptions plain = quiet();
  plain.symmetryBreaking = false;
  // (3,2,5): 5/3 rounds per chunk; decided both ways, the verdicts must agree.
  CHECK(decide(ring, semantics::CollectiveType::AllGather, 3, 2, 5) ==
        decide(ring, semantics::CollectiveType::AllGather, 3, 2, 5, 0, plain));
  CHECK(decide(ring, semantics::CollectiveType::AllGather, 2, 2, 3, 0, plain) == Verdict::Sat);
  // SCCL's verdicts (targets.md) hold without symmetry breaking too.
  const topo::Topology dgx1 = topo::loadTopology("dgx1");
  CHECK(decide(dgx1, semantics::CollectiveType::AllGather, 2, 2, 3, 0, plain) == Verdict::Sat);
  CHECK(decide(dgx1, semantics::CollectiveType::AllGather, 3, 2, 4, 0, plain) == Verdict::Unsat);
}

TEST_CASE("re-running an instance gives byte-identical IR") {
  const topo::Topology dgx1 = topo::loadTopology("dgx1");
  std::string first;
  for (int run = 0; run < 2; ++run) {
    Synthesizer synth(dgx1, semantics::CollectiveType::AllGather, 0, quiet());
    InstanceResult r = synth.solve(2, 2, 3);
    REQUIRE(r.schedule);
    const std::string xml =
        ir::toXml(emitVerified(synth.problem(2), *r.schedule, "x", ir::Protocol::Simple, "x.xml").algorithm);
    REQUIRE(!xml.empty());
    if (run == 0)
      first = xml;
    else
      CHECK(xml == first);
  }
}
