// The CPU backend runs the hand-built programs of the classic algorithms for every op and several
// types, in both count-splitting regimes and with 1, 2 and 4 tile iterations, and matches the
// reference each time.
#include <catch2/catch.hpp>

#include <chrono>

#include "runtime/samples/sample_programs.hpp"
#include "test_support.hpp"

using namespace ccforge;
using namespace ccforge::runtime;
using namespace ccforge::runtime::test;

namespace {

using Make = ir::Algorithm (*)(const samples::SampleOptions&);

// `k` chunks per step where a transfer carries several chunks; programs whose steps both receive
// and send (rings) need k = 1 once every chunk is its own transfer (see watchdog_test.cpp).
void sweepFamily(Make make, bool inPlaceToo, bool ring) {
  for (ir::Protocol proto : {ir::Protocol::Simple, ir::Protocol::LL, ir::Protocol::LL128}) {
    for (semantics::CallForm form : {semantics::CallForm::OutOfPlace, semantics::CallForm::InPlace}) {
      if (form == semantics::CallForm::InPlace && !inPlaceToo) continue;
      samples::SampleOptions o;
      o.proto = proto;
      o.form = form;
      o.chunksPerStep = 2;
      sweep(compileSample(make(o)), kSmallChunks, form);
      o.chunksPerStep = ring ? 1 : 3;
      const ExecutableProgram p = compileSample(make(o));
      if (!ring) sweep(p, kTwoChunksPerTransfer, form);
      sweep(p, kTwoTiles, form);
      sweep(p, kManyTiles, form);
    }
  }
}

}  // namespace

TEST_CASE("CPU: ring allreduce on two channels") {
  sweepFamily(
      [](const samples::SampleOptions& o) {
        samples::SampleOptions two = o;
        two.channels = 2;
        return samples::ringAllReduce(4, two);
      },
      true, true);
}

TEST_CASE("CPU: all-pairs allreduce with a fused re chain") {
  sweepFamily([](const samples::SampleOptions& o) { return samples::allPairsAllReduce(4, o); }, true, false);
}

TEST_CASE("CPU: two-step alltoall, 2 nodes x 3 GPUs") {
  sweepFamily([](const samples::SampleOptions& o) { return samples::twoStepAllToAll(2, 3, o); }, false, false);
}

TEST_CASE("CPU: ring allgather") {
  sweepFamily([](const samples::SampleOptions& o) { return samples::ringAllGather(5, o); }, true, true);
}

TEST_CASE("CPU: ring reducescatter") {
  sweepFamily([](const samples::SampleOptions& o) { return samples::ringReduceScatter(3, o); }, true, true);
}

TEST_CASE("CPU: the protocols' own tiles, with several tile iterations") {
  for (ir::Protocol proto : {ir::Protocol::Simple, ir::Protocol::LL, ir::Protocol::LL128}) {
    samples::SampleOptions o;
    o.proto = proto;
    const ExecutableProgram p = compileSample(samples::ringAllReduce(2, o));
    const int64_t chunk = p.protocolTileBytes() * 5 / 2 / 4;  // 2.5 tiles of f32
    const Measurement m = runOnCpu(p, callFor(p, countForChunk(p, chunk), DataType::F32, ReduceOp::Sum));
    INFO(m.check.describe());
    CHECK(m.check.passed());
  }
}

TEST_CASE("CPU: 64-rank programs with thousands of thread blocks finish in seconds") {
  samples::SampleOptions o;
  o.proto = ir::Protocol::LL;
  const auto start = std::chrono::steady_clock::now();
  for (const ir::Algorithm& a :
       {samples::ringAllReduce(64, o), samples::allPairsAllReduce(64, o), samples::twoStepAllToAll(8, 8, o)}) {
    const ExecutableProgram p = compileSample(a);
    const Measurement m = runOnCpu(p, callFor(p, countForChunk(p, 64), DataType::F32, ReduceOp::Sum));
    INFO(a.name << ": " << m.check.describe());
    CHECK(m.check.passed());
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  INFO("took " << seconds << " s");
  CHECK(seconds < 20);
}
