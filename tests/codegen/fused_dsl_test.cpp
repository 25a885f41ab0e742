// Fused programs written in the DSL (docs/fused.md, "The DSL"): compute() defines product chunks
// as ordinary references, the compiler lowers them to compute steps, the result verifies for
// ccforge-fused and runs bit-exactly on the CPU backend. Expected outcomes are stated per case.
#include <catch2/catch.hpp>

#include <memory>

#include "codegen/compile_error.hpp"
#include "compile_support.hpp"
#include "runtime/fused_check.hpp"
#include "runtime/program.hpp"
#include "runtime/target.hpp"

using namespace ccforge;
using ir::Buffer;

namespace {

constexpr int32_t kRanks = 4, kSlices = 2, kChunks = kRanks * kSlices;

dsl::CollectiveBinding fusedBinding(const dsl::FusedProduct& product) {
  dsl::CollectiveBinding b;
  b.type = product.allreduce() ? semantics::CollectiveType::AllReduce : semantics::CollectiveType::AllToAll;
  b.ranks = kRanks;
  b.chunkFactor = product.allreduce() ? kChunks : kSlices;
  b.product = product;
  return b;
}

// GEMV + AllReduce, all pairs: each rank computes its slices remote-first; the owner of a slice
// sums the others' into its output, then sends the sum to everyone.
dsl::Program gemvAllReduce(int32_t rows, dsl::ProgramOptions options = {}) {
  dsl::Program p("dsl-gemv-allreduce", fusedBinding({ir::ComputeOp::Gemv, rows, 1, 24, 0}), options);
  std::vector<std::vector<dsl::ChunkRef>> product(kRanks, std::vector<dsl::ChunkRef>(kChunks));
  for (int32_t r = 0; r < kRanks; ++r)
    for (int32_t k = 1; k <= kRanks; ++k)
      for (int32_t c = 0; c < kSlices; ++c) {
        const int32_t q = (r + k) % kRanks * kSlices + c;
        product[r][q] = p.compute(r, q);
      }
  for (int32_t q = 0; q < kChunks; ++q) {
    const int32_t owner = q / kSlices;
    dsl::ChunkRef sum = product[owner][q].copy(owner, Buffer::Output, q);
    for (int32_t k = 1; k < kRanks; ++k) sum = sum.reduce(product[(owner + k) % kRanks][q]);
    for (int32_t k = 1; k < kRanks; ++k) sum.copy((owner + k) % kRanks, Buffer::Output, q);
  }
  return p;
}

// Embedding-bag pooling + AllToAll: rank r's slice for rank d goes to d's output as computed.
dsl::Program embeddingAllToAll() {
  dsl::Program p("dsl-embedding-alltoall", fusedBinding({ir::ComputeOp::EmbeddingBag, kChunks * 4, 8, 3, 40}));
  for (int32_t r = 0; r < kRanks; ++r)
    for (int32_t k = 1; k <= kRanks; ++k)
      for (int32_t c = 0; c < kSlices; ++c) {
        const int32_t d = (r + k) % kRanks;
        p.compute(r, d * kSlices + c).copy(d, Buffer::Output, r * kSlices + c);
      }
  return p;
}

int32_t computeSteps(const ir::Algorithm& a) {
  int32_t n = 0;
  for (const ir::Gpu& g : a.gpus)
    for (const ir::ThreadBlock& tb : g.threadBlocks)
      for (const ir::Step& s : tb.steps) n += s.type == ir::OpType::Compute ? 1 : 0;
  return n;
}

void runsBitExact(const ir::Algorithm& algorithm) {
  const runtime::ExecutableProgram program = runtime::ExecutableProgram::compile(algorithm, algorithm.name);
  std::unique_ptr<runtime::Target> cpu = runtime::makeCpuTarget({});
  const runtime::FusedRunResult result = runtime::runFusedChecked(*cpu, program, 7, 0);
  INFO(result.firstWrong);
  CHECK(result.passed());
}

}  // namespace

TEST_CASE("dsl fused: GEMV + AllReduce from compute() verifies for ccforge-fused and runs bit-exactly") {
  const dsl::Program p = gemvAllReduce(kChunks * 3);
  const driver::CompiledAndVerified r =
      driver::compileAndVerify(p, {testing::target("ccforge-fused"), std::nullopt}, "g.xml");
  INFO(testing::describeViolations(r.report));
  REQUIRE(r.verified());
  const ir::Algorithm& a = r.compiled.algorithm;
  CHECK(a.fused);
  CHECK(a.collName == "fused-allreduce");
  CHECK(computeSteps(a) == kRanks * kChunks);
  for (const ir::Gpu& g : a.gpus) {
    REQUIRE(g.product);
    CHECK(g.product->rows == kChunks * 3);
    CHECK(g.operands.size() == 2);
    for (const ir::ThreadBlock& tb : g.threadBlocks)
      for (const ir::Step& s : tb.steps)
        if (s.type == ir::OpType::Compute) {  // chunk q holds rows 3q .. 3q+2
          CHECK(s.srcOperand);
          CHECK(s.row == s.dstoff * 3);
          CHECK(s.nrows == s.cnt * 3);
        }
  }
  runsBitExact(a);
}

TEST_CASE("dsl fused: instances cut the compute steps with the chunks") {
  const dsl::Program p = gemvAllReduce(kChunks * 4, {.instances = 2});
  const driver::CompiledAndVerified r =
      driver::compileAndVerify(p, {testing::target("ccforge-fused"), std::nullopt}, "g.xml");
  INFO(testing::describeViolations(r.report));
  REQUIRE(r.verified());
  CHECK(computeSteps(r.compiled.algorithm) == 2 * kRanks * kChunks);
  runsBitExact(r.compiled.algorithm);
  // 3 rows per chunk do not split into 2 instances: refused with the reason, not miscompiled.
  CHECK_THROWS_WITH(codegen::compile(gemvAllReduce(kChunks * 3, {.instances = 2}), {testing::target("ccforge-fused")}),
                    Catch::Contains("rows do not divide"));
}

TEST_CASE("dsl fused: embedding-bag + AllToAll from compute() verifies and runs bit-exactly") {
  const dsl::Program p = embeddingAllToAll();
  const driver::CompiledAndVerified r =
      driver::compileAndVerify(p, {testing::target("ccforge-fused"), std::nullopt}, "e.xml");
  INFO(testing::describeViolations(r.report));
  REQUIRE(r.verified());
  CHECK(r.compiled.algorithm.collName == "fused-alltoall");
  runsBitExact(r.compiled.algorithm);
}

TEST_CASE("dsl fused: a stock MSCCL runtime is refused at compile time") {
  CHECK_THROWS_WITH(codegen::compile(gemvAllReduce(kChunks), {testing::target("msccl-executor")}),
                    Catch::Contains("compile it for ccforge-fused"));
}
