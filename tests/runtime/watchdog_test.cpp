// A program that cannot finish is reported, never hung: the CPU backend names every blocked
// thread block with (rank, tb, step, tile) and what it waits for.
#include <catch2/catch.hpp>

#include <chrono>

#include "runtime/cpu/cpu_executor.hpp"
#include "runtime/execution_error.hpp"
#include "runtime/samples/sample_programs.hpp"
#include "test_support.hpp"

using namespace ccforge;
using namespace ccforge::runtime;
using namespace ccforge::runtime::test;

namespace {

ExecutionFailed expectFailure(const ExecutableProgram& p, const CallShape& call, TargetOptions options = {}) {
  try {
    runOnCpu(p, call, options);
  } catch (const ExecutionFailed& e) {
    return e;
  }
  FAIL("the launch finished");
  throw std::logic_error("unreachable");
}

}  // namespace

TEST_CASE("watchdog: two ranks that both receive first deadlock, reported at once") {
  const ExecutableProgram p = loadFile(runtimeFixturesDir() + "/recv_before_send_allreduce_n2.xml");
  const auto start = std::chrono::steady_clock::now();
  const ExecutionFailed e = expectFailure(p, callFor(p, 1024, DataType::F32, ReduceOp::Sum));
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));  // the 30 s limit was not needed
  CHECK(e.kind() == ExecutionFailed::Kind::Deadlock);
  REQUIRE(e.blocked().size() == 2);
  CHECK(e.blocked()[0].rank == 0);
  CHECK(e.blocked()[0].step == 0);
  CHECK(e.blocked()[0].tile == 0);
  CHECK(e.blocked()[0].wait == WaitKind::Data);
  CHECK_THAT(e.what(), Catch::Contains("deadlock") &&
                           Catch::Contains("rank 1 tb 0 step 0 tile 0: waits for data from rank 0 on channel 0"));
}

TEST_CASE("watchdog: a dependency on a step that never publishes its flag") {
  const ExecutableProgram p = loadFile(runtimeFixturesDir() + "/unflagged_dependency_allgather_n2.xml");
  const ExecutionFailed e = expectFailure(p, callFor(p, 256, DataType::I32, ReduceOp::Sum));
  CHECK(e.kind() == ExecutionFailed::Kind::Deadlock);
  CHECK_THAT(e.what(), Catch::Contains("rank 0 tb 1 step 0 tile 0: waits for tb 0 to finish step 0 (dependency)") &&
                           Catch::Contains("rank 1 tb 1 step 1 tile 0: waits for data from rank 0"));
}

TEST_CASE("watchdog: the LL128 ring deadlocks with one FIFO slot per connection, as the corpus states") {
  const ExecutableProgram p = loadFile(corpusDir() + "/msccl-tools/valid/allreduce_ring_a100_n4_ch1_i1_LL128.xml");
  TargetOptions one;
  one.tuning.slots = 1;
  const ExecutionFailed e = expectFailure(p, callFor(p, 4096, DataType::F32, ReduceOp::Sum), one);
  CHECK(e.kind() == ExecutionFailed::Kind::Deadlock);
  REQUIRE(e.blocked().size() == 4);
  for (const BlockedTb& b : e.blocked()) {
    CHECK(b.step == 1);
    CHECK(b.wait == WaitKind::Slot);
  }
  TargetOptions two;
  two.tuning.slots = 2;
  CHECK(runOnCpu(p, callFor(p, 4096, DataType::F32, ReduceOp::Sum), two).check.passed());
}

TEST_CASE("watchdog: a ring with cnt 2 works while a transfer holds both chunks and deadlocks once it cannot") {
  samples::SampleOptions o;
  o.chunksPerStep = 2;
  const ExecutableProgram p = compileSample(samples::ringAllReduce(3, o));
  TargetOptions small;
  small.tuning.tileBytes = 4096;
  CHECK(runOnCpu(p, callFor(p, countForChunk(p, 256), DataType::F32, ReduceOp::Sum), small)
            .check.passed());  // maxAllowedCount 4
  // Chunks of a whole tile: each cnt-2 step is 2 transfers = all 4 Simple slices, the rrs after the s finds no slot.
  const ExecutionFailed e = expectFailure(p, callFor(p, countForChunk(p, 1024), DataType::F32, ReduceOp::Sum), small);
  CHECK(e.kind() == ExecutionFailed::Kind::Deadlock);
  for (const BlockedTb& b : e.blocked()) CHECK(b.wait == WaitKind::Slot);
}

TEST_CASE("watchdog: the time limit stops a long launch, and the executor recovers") {
  const ExecutableProgram p = compileSample(samples::ringAllReduce(4, {}));
  constexpr int64_t kCount = 1 << 20;
  const CallShape call = callFor(p, kCount, DataType::F64, ReduceOp::Sum);
  CpuOptions options;
  options.timeout = std::chrono::milliseconds(1);
  options.workers = 1;
  CpuExecutor executor(p, call, options);
  std::vector<std::vector<double>> send(4, std::vector<double>(kCount)), recv(4, std::vector<double>(kCount));
  std::vector<RankBuffers> buffers;
  for (int r = 0; r < 4; ++r) {
    std::fill(send[r].begin(), send[r].end(), r + 1.0);
    buffers.push_back({send[r].data(), kCount, recv[r].data(), kCount});
  }
  try {
    executor.launch(buffers);
    FAIL("an 8 MiB-per-rank allreduce finished within 1 ms");
  } catch (const ExecutionFailed& e) {
    CHECK(e.kind() == ExecutionFailed::Kind::Timeout);
    CHECK_FALSE(e.blocked().empty());
    CHECK_THAT(e.what(), Catch::Contains("the watchdog stopped the launch after 0.001 s"));
  }
  // The FIFOs and flags were reset: the next launches compute the right result.
  executor.setTimeout(std::chrono::seconds(60));
  executor.launch(buffers);
  executor.launch(buffers);
  CHECK(recv[0][0] == 10.0);
  CHECK(recv[3][kCount - 1] == 10.0);
}
