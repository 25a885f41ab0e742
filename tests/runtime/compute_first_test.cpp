// The compute-first split (runtime/compute_first.hpp): which thread blocks of a fused program run
// as the first launch, and the programs that have no such split.
#include <catch2/catch.hpp>

#include <stdexcept>

#include "fused_library.hpp"
#include "runtime/compute_first.hpp"
#include "runtime/program.hpp"
#include "runtime/samples/sample_programs.hpp"
#include "runtime/target.hpp"

using namespace ccforge;
using namespace ccforge::runtime;

namespace {

algorithms::FusedParameters gemv(int32_t ranks, int32_t computeTbs, bool bulk) {
  algorithms::FusedParameters p;
  p.op = ir::ComputeOp::Gemv;
  p.ranks = ranks;
  p.chunksPerRank = 2;
  p.computeTbs = computeTbs;
  p.bulkSynchronous = bulk;
  p.rows = ranks * 2 * 4;
  p.inner = 8;
  return p;
}

}  // namespace

TEST_CASE("compute-first: the compute blocks of every rank first, the rest second") {
  for (bool bulk : {false, true}) {
    const ExecutableProgram program = ExecutableProgram::compile(algorithms::fusedProgram(gemv(4, 3, bulk)), "gemv");
    const ComputeFirstSplit split = splitComputeFirst(program);
    // Each rank: tbs 0..2 compute, then 1 local + 3 send + 3 receive blocks.
    REQUIRE(split.computeTbs.size() == 4 * 3);
    CHECK(split.otherTbs.size() == 4 * 7);
    for (int32_t t : split.computeTbs) CHECK(program.tbs()[static_cast<size_t>(t)].tb < 3);
    for (int32_t t : split.otherTbs) CHECK(program.tbs()[static_cast<size_t>(t)].tb >= 3);
    CHECK(split.computeTbs.front() == 0);
    CHECK(split.otherTbs.front() == 3);
  }
}

TEST_CASE("compute-first: programs without blocks that only compute are refused, saying why") {
  const ExecutableProgram inlined = ExecutableProgram::compile(algorithms::fusedProgram(gemv(4, 0, false)), "inline");
  CHECK_THROWS_WITH(splitComputeFirst(inlined), Catch::Contains("no thread block of the program only computes"));
  const ExecutableProgram plain = ExecutableProgram::compile(samples::allPairsAllReduce(4, {}), "all-pairs");
  CHECK_THROWS_WITH(splitComputeFirst(plain), Catch::Contains("fused programs only"));
  // A compute block that waits for a communication block could never finish in a launch of its own.
  ir::Algorithm a = algorithms::fusedProgram(gemv(2, 1, false));
  ir::Step& first = a.gpus[0].threadBlocks[0].steps[0];
  first.depid = 1;  // the local block
  first.deps = 0;
  const ExecutableProgram waiting = ExecutableProgram::compile(a, "waiting");
  CHECK_THROWS_WITH(splitComputeFirst(waiting), Catch::Contains("rank 0 tb 0 computes but waits for rank 0 tb 1"));
}

TEST_CASE("compute-first: the CPU backend refuses the CUDA mode") {
  TargetOptions o;
  o.computeFirst = true;
  CHECK_THROWS_WITH(makeCpuTarget(o), Catch::Contains("mode of the CUDA backend"));
}
