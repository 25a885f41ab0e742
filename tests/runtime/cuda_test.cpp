// The CUDA backend. Every test needs a GPU (two for gpu-per-rank); without one it prints
// "SKIPPED: <why>" and ctest counts it as skipped.
#include <catch2/catch.hpp>

#include <cstring>
#include <random>
#include <iostream>
#include <utility>

#include "codegen/compiler.hpp"
#include "ir/names.hpp"
#include "fused_library.hpp"
#include "library.hpp"
#include "runtime/execution_error.hpp"
#include "runtime/samples/sample_programs.hpp"
#include "test_support.hpp"

using namespace ccforge;
using namespace ccforge::runtime;
using namespace ccforge::runtime::test;

namespace {

bool skipUnlessGpus(int needed) {
  std::string why = cudaUnavailableReason();
  if (why.empty() && cudaDeviceCount() < needed)
    why = "needs " + std::to_string(needed) + " GPUs, found " + std::to_string(cudaDeviceCount());
  if (why.empty()) return false;
  std::cout << "SKIPPED: " << why << "\n";
  return true;
}

TargetOptions gpu(GpuMode mode = GpuMode::RanksOnOneGpu) {
  TargetOptions o;
  o.backend = BackendKind::Cuda;
  o.mode = mode;
  o.timeout = std::chrono::seconds(10);
  return o;
}

}  // namespace

TEST_CASE("CUDA ranks-on-one-gpu: the sample programs match the reference in every regime") {
  if (skipUnlessGpus(1)) return;
  for (ir::Protocol proto : {ir::Protocol::Simple, ir::Protocol::LL, ir::Protocol::LL128}) {
    samples::SampleOptions o;
    o.proto = proto;
    o.chunksPerStep = 1;
    for (const ir::Algorithm& a :
         {samples::ringAllReduce(4, o), samples::allPairsAllReduce(4, o), samples::twoStepAllToAll(2, 2, o),
          samples::ringAllGather(3, o), samples::ringReduceScatter(3, o)}) {
      const ExecutableProgram p = compileSample(a);
      for (const SizeRegime& regime : {kSmallChunks, kTwoTiles, kManyTiles})
        sweep(p, regime, semantics::CallForm::OutOfPlace, gpu());
    }
    o.form = semantics::CallForm::InPlace;
    o.chunksPerStep = 3;
    const ExecutableProgram allPairs = compileSample(samples::allPairsAllReduce(4, o));
    sweep(allPairs, kTwoChunksPerTransfer, semantics::CallForm::InPlace, gpu());
  }
}

TEST_CASE("CUDA ranks-on-one-gpu: every valid corpus file matches the reference") {
  if (skipUnlessGpus(1)) return;
  for (const char* name :
       {"allgather_ring_simple_oop_n4.xml", "allreduce_hierarchical_2nodes_x3gpus_i1_auto.xml",
        "allreduce_ring_a100_n4_ch1_i1_LL128.xml", "alltoall_two_step_2nodes_x4gpus.xml",
        "azure_allreduce_ring_a100_n8_ch4_i1_LL128.xml", "sccl_allgather_dgx1_pareto_s2_r3_c2.xml"}) {
    const ExecutableProgram p = loadFile(corpusDir() + "/msccl-tools/valid/" + name);
    const semantics::CallForm form =
        p.serves(semantics::CallForm::OutOfPlace) ? semantics::CallForm::OutOfPlace : semantics::CallForm::InPlace;
    for (const SizeRegime& regime : {kSmallChunks, kTwoTiles}) sweep(p, regime, form, gpu());
  }
}

TEST_CASE("CUDA ranks-on-one-gpu: every library algorithm, compiled, matches the reference") {
  if (skipUnlessGpus(1)) return;
  for (const algorithms::LibraryEntry& entry : algorithms::library()) {
    if (entry.name == "alltonext") continue;  // a custom collective: refused at load (cpu_library_test.cpp)
    const algorithms::Instance instance = algorithms::instantiate(entry.name, {});
    const ExecutableProgram p = loadExecutable(codegen::compile(instance.program).algorithm, entry.name, {});
    const semantics::CallForm form =
        p.serves(semantics::CallForm::OutOfPlace) ? semantics::CallForm::OutOfPlace : semantics::CallForm::InPlace;
    const auto root = instance.arguments.find("root");
    const int32_t r = root == instance.arguments.end() ? 0 : static_cast<int32_t>(root->second);
    for (const SizeRegime& regime : {kSmallChunks, kTwoTiles}) sweep(p, regime, form, gpu(), r);
  }
}

TEST_CASE("CUDA ranks-on-one-gpu: large messages at the protocols' own tiles") {
  if (skipUnlessGpus(1)) return;
  for (ir::Protocol proto : {ir::Protocol::Simple, ir::Protocol::LL128}) {
    samples::SampleOptions o;
    o.proto = proto;
    const ExecutableProgram p = compileSample(samples::ringAllReduce(8, o));
    const Measurement m = runOn(p, callFor(p, 8 << 20, DataType::F32, ReduceOp::Sum), gpu());
    INFO(m.check.describe());
    CHECK(m.check.passed());
  }
}

TEST_CASE("CUDA ranks-on-one-gpu: the GPU watchdog turns a deadlock into an error naming the blocked tbs") {
  if (skipUnlessGpus(1)) return;
  const ExecutableProgram p = loadFile(runtimeFixturesDir() + "/recv_before_send_allreduce_n2.xml");
  TargetOptions o = gpu();
  o.timeout = std::chrono::milliseconds(500);
  try {
    runOn(p, callFor(p, 1024, DataType::F32, ReduceOp::Sum), o);
    FAIL("the deadlocking program finished");
  } catch (const ExecutionFailed& e) {
    CHECK(e.kind() == ExecutionFailed::Kind::Timeout);
    REQUIRE(e.blocked().size() == 2);
    CHECK(e.blocked()[1].rank == 1);
    CHECK(e.blocked()[1].wait == WaitKind::Data);
    CHECK_THAT(e.what(), Catch::Contains("rank 0 tb 0 step 0 tile 0: waits for data from rank 1"));
  }
}

// Issue 32: the CUDA backend fills scratch with the CPU backend's poison byte (runtime/core/poison.hpp).
TEST_CASE("CUDA ranks-on-one-gpu: a reduction with scratch nothing wrote fails the check, as on the CPU") {
  if (skipUnlessGpus(1)) return;
  const ExecutableProgram p = loadFile(runtimeFixturesDir() + "/rrc_unwritten_scratch_alltoall_n2.xml");
  for (const DataType dtype : {DataType::F32, DataType::I32}) {
    const Measurement m = runOn(p, callFor(p, 64, dtype, ReduceOp::Sum), gpu());
    CHECK(m.check.checked == 256);
    CHECK(m.check.mismatches == 128);
  }
}

TEST_CASE("CUDA ranks-on-one-gpu: too many thread blocks to be co-resident are refused before launch") {
  if (skipUnlessGpus(1)) return;
  const ExecutableProgram p = compileSample(samples::allPairsAllReduce(64, {}));  // 8128 tbs
  CHECK_THROWS_WITH(runOn(p, callFor(p, 64 * 64, DataType::F32, ReduceOp::Sum), gpu()),
                    Catch::Contains("cannot all be resident on GPU 0 at once"));
}

TEST_CASE("CUDA ranks-on-one-gpu: outside the window the reference runs on copies of the device buffers") {
  if (skipUnlessGpus(1)) return;
  ir::Algorithm a = samples::ringAllReduce(4, {});
  a.maxBytes = 4096;
  const ExecutableProgram p = compileSample(a);
  const Measurement m = runOn(p, callFor(p, 4096, DataType::I32, ReduceOp::Max), gpu());
  CHECK(m.result.path == Path::Reference);
  CHECK(m.check.passed());
}

TEST_CASE("CUDA gpu-per-rank: a ring allreduce across GPUs, and NCCL as the fallback") {
  if (skipUnlessGpus(2)) return;
  const int ranks = std::min(cudaDeviceCount(), 8);
  ir::Algorithm a = samples::ringAllReduce(ranks, {});
  a.maxBytes = 1 << 20;
  const ExecutableProgram p = compileSample(a);
  const TargetOptions o = gpu(GpuMode::GpuPerRank);
  const Measurement inside = runOn(p, callFor(p, ranks * 1024, DataType::F32, ReduceOp::Sum), o);
  CHECK(inside.result.path == Path::Interpreter);
  CHECK(inside.check.passed());
  const Measurement outside = runOn(p, callFor(p, ranks * (1 << 20), DataType::F32, ReduceOp::Sum), o);
  CHECK(outside.result.path == Path::Nccl);
  CHECK(outside.check.passed());
}

// Fused GEMV + AllReduce (docs/fused.md) as one cooperative launch of compute and communication
// blocks: small-integer operands, so y = sum_r W_r x_r is exact and compared bit for bit.
// With compute-first, the compute blocks run as a launch of their own before the others.
TEST_CASE("CUDA ranks-on-one-gpu: fused GEMV + AllReduce is bit-exact, fused and bulk-synchronous") {
  if (skipUnlessGpus(1)) return;
  for (auto [ranks, computeTbs, group, lanes] :
       {std::tuple{2, 1, 1, 1}, std::tuple{4, 1, 1, 1}, std::tuple{8, 1, 1, 1}, std::tuple{4, 3, 1, 1},
        std::tuple{8, 16, 1, 1}, std::tuple{4, 0, 1, 1}, std::tuple{8, 0, 2, 1}, std::tuple{4, 8, 2, 1},
        std::tuple{4, 0, 1, 2}, std::tuple{4, 3, 1, 2}})
    for (int variant = 0; variant < 4; ++variant) {
      const bool bulk = variant % 2 == 1, computeFirst = variant >= 2;
      if (computeTbs == 0 && (bulk || computeFirst)) continue;  // both need compute blocks
      algorithms::FusedParameters p;
      p.op = ir::ComputeOp::Gemv;
      p.ranks = ranks;
      p.chunksPerRank = 2;
      p.computeTbs = computeTbs;
      p.chunksPerStep = group;
      p.lanes = lanes;
      p.rows = ranks * 2 * 16;
      p.inner = 40;
      p.order = algorithms::FusedOrder::RemoteFirst;
      p.bulkSynchronous = bulk;
      const ExecutableProgram program = ExecutableProgram::compile(algorithms::fusedProgram(p), "gemv");
      CallShape call;
      call.collective = semantics::CollectiveType::AllReduce;
      call.ranks = ranks;
      call.form = semantics::CallForm::OutOfPlace;
      call.count = p.rows;
      TargetOptions options = gpu();
      options.computeFirst = computeFirst;
      std::unique_ptr<Target> target = makeTarget(options);
      std::unique_ptr<Executor> executor = target->prepare(program, call);
      std::vector<std::vector<float>> w(ranks), x(ranks);
      std::vector<float> y(static_cast<size_t>(p.rows), 0.0f);
      std::vector<RankBuffers> buffers(ranks);
      std::vector<void*> allocations;
      auto device = [&](int32_t r, const void* host, size_t bytes) {
        void* d = target->allocate(r, bytes);
        if (host) target->upload(r, d, host, bytes);
        allocations.push_back(d);
        return d;
      };
      for (int32_t r = 0; r < ranks; ++r) {
        for (int32_t i = 0; i < p.rows * p.inner; ++i) w[r].push_back(static_cast<float>((i * 7 + r * 3) % 5 - 2));
        for (int32_t k = 0; k < p.inner; ++k) x[r].push_back(static_cast<float>((k + r) % 5 - 2));
        for (int32_t i = 0; i < p.rows; ++i)
          for (int32_t k = 0; k < p.inner; ++k)
            y[static_cast<size_t>(i)] += w[r][static_cast<size_t>(i * p.inner + k)] * x[r][static_cast<size_t>(k)];
        buffers[r].send = device(r, nullptr, sizeof(float) * static_cast<size_t>(p.rows));
        buffers[r].sendElems = p.rows;
        buffers[r].recv = device(r, nullptr, sizeof(float) * static_cast<size_t>(p.rows));
        buffers[r].recvElems = p.rows;
        buffers[r].operands[0] = device(r, w[r].data(), sizeof(float) * w[r].size());
        buffers[r].operands[1] = device(r, x[r].data(), sizeof(float) * x[r].size());
      }
      executor->launch(buffers);
      executor->wait();
      for (int32_t r = 0; r < ranks; ++r) {
        std::vector<float> out(static_cast<size_t>(p.rows));
        target->download(r, out.data(), buffers[r].recv, sizeof(float) * out.size());
        INFO("bulk=" << bulk << " ranks=" << ranks << " compute tbs=" << computeTbs << " group=" << group
                     << " lanes=" << lanes << " compute-first=" << computeFirst << " rank " << r);
        CHECK(std::memcmp(out.data(), y.data(), sizeof(float) * y.size()) == 0);
      }
      for (size_t k = 0; k < allocations.size(); ++k) target->release(static_cast<int32_t>(k / 4), allocations[k]);
    }
}

// One semantics: the GPU's compute steps (a warp per element) and its reductions give the CPU
// backend's bits on arbitrary floats, for each operator: the products (left in the input buffers)
// and the collective's outputs are compared bit for bit between the two backends.
// GEMV rows of whole aligned quads take the GPU's other loops (runtime/core/compute.hpp): rows
// of at most 32 and 64 quads several per warp at once, longer ones one at a time.
TEST_CASE("CUDA ranks-on-one-gpu: fused programs give the CPU backend's bits on arbitrary floats") {
  if (skipUnlessGpus(1)) return;
  const std::pair<ir::ComputeOp, int32_t> cases[] = {{ir::ComputeOp::Gemv, 101},  {ir::ComputeOp::Gemv, 96},
                                                     {ir::ComputeOp::Gemv, 256},  {ir::ComputeOp::Gemv, 500},
                                                     {ir::ComputeOp::Gemv, 1040}, {ir::ComputeOp::EmbeddingBag, 37},
                                                     {ir::ComputeOp::Gemm, 101}};
  for (auto [op, inner] : cases) {
    algorithms::FusedParameters p;
    p.op = op;
    p.ranks = 4;
    p.chunksPerRank = 2;
    p.computeTbs = 3;
    p.rows = 4 * 2 * 9;  // rows per chunk not a multiple of the rows a warp takes at once
    p.cols = op == ir::ComputeOp::Gemv ? 1 : 3;
    p.inner = inner;  // 101 and 37: not multiples of the 32 lanes, nor of a quad
    p.tableRows = 50;
    const ExecutableProgram program = ExecutableProgram::compile(algorithms::fusedProgram(p), "arbitrary floats");
    const ir::Algorithm& a = program.algorithm();
    const bool allreduce = op == ir::ComputeOp::Gemv;
    const int64_t elems = int64_t{p.rows} * p.cols;
    CallShape call;
    call.collective = allreduce ? semantics::CollectiveType::AllReduce : semantics::CollectiveType::AllToAll;
    call.ranks = p.ranks;
    call.count = allreduce ? elems : elems / p.ranks;
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    std::vector<std::vector<float>> operandA(p.ranks), operandB(p.ranks);
    std::vector<std::vector<int32_t>> indices(p.ranks);
    for (int32_t r = 0; r < p.ranks; ++r) {
      const ir::Operand& A = a.gpus[static_cast<size_t>(r)].operands[0];
      const ir::Operand& B = a.gpus[static_cast<size_t>(r)].operands[1];
      for (int64_t i = 0; i < int64_t{A.rows} * A.cols; ++i) operandA[r].push_back(value(rng));
      for (int64_t i = 0; i < int64_t{B.rows} * B.cols; ++i)
        if (B.dtype == ir::OperandType::I32)
          indices[r].push_back(static_cast<int32_t>(rng() % static_cast<uint32_t>(A.rows)));
        else
          operandB[r].push_back(value(rng));
    }
    // Runs the program on `options`' target; returns every rank's input then output buffer.
    auto runOn = [&](const TargetOptions& options) {
      std::unique_ptr<Target> target = makeTarget(options);
      std::unique_ptr<Executor> executor = target->prepare(program, call);
      std::vector<RankBuffers> buffers(p.ranks);
      std::vector<std::pair<int32_t, void*>> owned;
      auto place = [&](int32_t r, const void* host, size_t bytes) {
        void* d = target->allocate(r, bytes);
        if (host) target->upload(r, d, host, bytes);
        owned.emplace_back(r, d);
        return d;
      };
      const size_t bytes = sizeof(float) * static_cast<size_t>(elems);
      for (int32_t r = 0; r < p.ranks; ++r) {
        buffers[r].send = place(r, nullptr, bytes);
        buffers[r].sendElems = elems;
        buffers[r].recv = place(r, nullptr, bytes);
        buffers[r].recvElems = elems;
        buffers[r].operands[0] = place(r, operandA[r].data(), sizeof(float) * operandA[r].size());
        buffers[r].operands[1] = indices[r].empty() ? place(r, operandB[r].data(), sizeof(float) * operandB[r].size())
                                                    : place(r, indices[r].data(), sizeof(int32_t) * indices[r].size());
      }
      executor->launch(buffers);
      executor->wait();
      std::vector<float> all(static_cast<size_t>(2 * p.ranks * elems));
      for (int32_t r = 0; r < p.ranks; ++r) {
        target->download(r, all.data() + (2 * r) * elems, buffers[r].send, bytes);
        target->download(r, all.data() + (2 * r + 1) * elems, buffers[r].recv, bytes);
      }
      for (auto& [r, d] : owned) target->release(r, d);
      return all;
    };
    TargetOptions cpu;
    const std::vector<float> onCpu = runOn(cpu), onGpu = runOn(gpu());
    INFO(std::string(ir::computeOpName(op)) << " inner " << inner);
    CHECK(std::memcmp(onCpu.data(), onGpu.data(), sizeof(float) * onCpu.size()) == 0);
  }
}
