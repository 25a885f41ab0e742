// Fused computation + collective programs on the CPU backend (docs/fused.md): every library
// operator, for R in {2, 4, 8}, several shapes and slice granularities, both order policies and
// the bulk-synchronous baseline, against a plain reference computed here. Small-integer operands
// make every fp32 sum exact, so the results must be bit-identical whatever the order.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "fused_library.hpp"
#include "runtime/core/compute.hpp"
#include "runtime/program.hpp"
#include "runtime/target.hpp"

using namespace ccforge;
using namespace ccforge::runtime;
using algorithms::FusedOrder;
using algorithms::FusedParameters;

namespace {

struct RankData {
  std::vector<float> a;         // W, table or X (row-major)
  std::vector<float> bFloat;    // x or W (gemv, gemm)
  std::vector<int32_t> bIndex;  // embedding indices
  std::vector<float> product;   // the plain reference of the rank's product
};

RankData makeRank(const FusedParameters& p, std::mt19937& rng) {
  std::uniform_int_distribution<int> small(-3, 3);
  RankData d;
  const int32_t aRows = p.op == ir::ComputeOp::EmbeddingBag ? p.tableRows : p.rows;
  const int32_t aCols = p.op == ir::ComputeOp::EmbeddingBag ? p.cols : p.inner;
  d.a.resize(static_cast<size_t>(aRows) * aCols);
  for (float& v : d.a) v = static_cast<float>(small(rng));
  d.product.assign(static_cast<size_t>(p.rows) * p.cols, 0.0f);
  if (p.op == ir::ComputeOp::EmbeddingBag) {
    std::uniform_int_distribution<int32_t> index(0, p.tableRows - 1);
    d.bIndex.resize(static_cast<size_t>(p.rows) * p.inner);
    for (int32_t& v : d.bIndex) v = index(rng);
    for (int32_t i = 0; i < p.rows; ++i)
      for (int32_t l = 0; l < p.inner; ++l)
        for (int32_t c = 0; c < p.cols; ++c)
          d.product[static_cast<size_t>(i) * p.cols + c] +=
              d.a[static_cast<size_t>(d.bIndex[static_cast<size_t>(i) * p.inner + l]) * p.cols + c];
  } else {
    d.bFloat.resize(static_cast<size_t>(p.inner) * p.cols);
    for (float& v : d.bFloat) v = static_cast<float>(small(rng));
    for (int32_t i = 0; i < p.rows; ++i)
      for (int32_t c = 0; c < p.cols; ++c)
        for (int32_t k = 0; k < p.inner; ++k)
          d.product[static_cast<size_t>(i) * p.cols + c] +=
              d.a[static_cast<size_t>(i) * p.inner + k] * d.bFloat[static_cast<size_t>(k) * p.cols + c];
  }
  return d;
}

// Runs the fused program on the CPU backend and compares every output element with the reference.
void runAndCheck(const FusedParameters& p, int64_t tileBytes, int workers, uint32_t seed) {
  const ir::Algorithm algo = algorithms::fusedProgram(p);
  INFO(algo.name << " tile=" << tileBytes << " workers=" << workers);
  const ExecutableProgram program = ExecutableProgram::compile(algo, algo.name);
  const int32_t R = p.ranks;
  const bool allreduce = p.op == ir::ComputeOp::Gemv;
  const int64_t elems = static_cast<int64_t>(p.rows) * p.cols;  // each rank's product
  CallShape call;
  call.collective = allreduce ? semantics::CollectiveType::AllReduce : semantics::CollectiveType::AllToAll;
  call.ranks = R;
  call.form = semantics::CallForm::OutOfPlace;
  call.count = allreduce ? elems : elems / R;
  call.dtype = DataType::F32;
  TargetOptions options;
  options.cpuWorkers = workers;
  options.tuning.tileBytes = tileBytes;
  std::unique_ptr<Target> target = makeCpuTarget(options);
  std::unique_ptr<Executor> executor = target->prepare(program, call);

  std::mt19937 rng(seed);
  std::vector<RankData> data;
  for (int32_t r = 0; r < R; ++r) data.push_back(makeRank(p, rng));
  std::vector<std::vector<float>> product(R, std::vector<float>(static_cast<size_t>(elems), -12345.0f));
  std::vector<std::vector<float>> output(R, std::vector<float>(static_cast<size_t>(elems), -54321.0f));
  std::vector<RankBuffers> buffers(R);
  for (int32_t r = 0; r < R; ++r) {
    buffers[r].send = product[r].data();
    buffers[r].sendElems = elems;
    buffers[r].recv = output[r].data();
    buffers[r].recvElems = elems;
    buffers[r].operands[0] = data[r].a.data();
    buffers[r].operands[1] = data[r].bIndex.empty() ? static_cast<const void*>(data[r].bFloat.data())
                                                    : static_cast<const void*>(data[r].bIndex.data());
  }
  executor->launch(buffers);
  executor->wait();

  const int64_t share = elems / R;  // alltoall: what one rank sends each other rank
  int64_t wrong = 0;
  for (int32_t r = 0; r < R; ++r) {
    CHECK(std::memcmp(product[r].data(), data[r].product.data(), sizeof(float) * static_cast<size_t>(elems)) == 0);
    for (int64_t g = 0; g < elems; ++g) {
      float expected = 0;
      if (allreduce) {
        for (int32_t s = 0; s < R; ++s) expected += data[s].product[static_cast<size_t>(g)];
      } else {
        const int64_t from = g / share, x = g % share;
        expected = data[from].product[static_cast<size_t>(r * share + x)];
      }
      if (std::memcmp(&expected, &output[r][static_cast<size_t>(g)], sizeof(float)) != 0 && wrong++ < 5)
        FAIL_CHECK("rank " << r << " element " << g << ": " << output[r][static_cast<size_t>(g)] << ", expected "
                           << expected);
    }
  }
  CHECK(wrong == 0);
}

FusedParameters shape(ir::ComputeOp op, int32_t ranks, int32_t chunks, int32_t rowsPerChunk, int32_t variant) {
  FusedParameters p;
  p.op = op;
  p.ranks = ranks;
  p.chunksPerRank = chunks;
  p.rows = ranks * chunks * rowsPerChunk;
  switch (op) {
    case ir::ComputeOp::Gemv:
      p.inner = variant == 0 ? 16 : 100;
      p.cols = 1;
      break;
    case ir::ComputeOp::EmbeddingBag:
      p.cols = variant == 0 ? 8 : 32;
      p.inner = variant == 0 ? 3 : 7;
      p.tableRows = 50;
      break;
    case ir::ComputeOp::Gemm:
      p.inner = variant == 0 ? 8 : 24;
      p.cols = variant == 0 ? 4 : 12;
      break;
    case ir::ComputeOp::None: break;
  }
  return p;
}

void sweepOperator(ir::ComputeOp op) {
  uint32_t seed = 1;
  for (int32_t ranks : {2, 4, 8})
    for (int32_t chunks : {1, 2, 3})
      for (FusedOrder order : {FusedOrder::Natural, FusedOrder::RemoteFirst})
        for (bool bulk : {false, true})
          for (int32_t variant : {0, 1}) {
            FusedParameters p = shape(op, ranks, chunks, variant == 0 ? 4 : 12, variant);
            p.order = order;
            p.bulkSynchronous = bulk;
            p.computeTbs = variant == 0 ? 1 : std::min(ranks * chunks, 3);
            // One tile, and tiles of 256 bytes (several tile iterations per chunk).
            runAndCheck(p, 0, 2, seed++);
            runAndCheck(p, 256, 3, seed++);
            if (chunks == 2) {  // both chunks in each communication step
              FusedParameters grouped = p;
              grouped.chunksPerStep = 2;
              runAndCheck(grouped, 0, 2, seed++);
              runAndCheck(grouped, 256, 3, seed++);
            }
            if (bulk) continue;
            p.computeTbs = 0;  // the communication blocks compute what they send
            runAndCheck(p, 0, 2, seed++);
            runAndCheck(p, 256, 3, seed++);
            for (int32_t computeTbs : {0, 2}) {  // a lane per chunk: copies of the communication blocks
              if (chunks == 1) break;
              FusedParameters laned = p;
              laned.computeTbs = computeTbs;
              laned.lanes = chunks;
              runAndCheck(laned, 0, 2, seed++);
              runAndCheck(laned, 256, 3, seed++);
            }
          }
}

}  // namespace

TEST_CASE("cpu fused: GEMV + AllReduce is bit-exact (y = sum_r W_r x_r on every rank)") {
  sweepOperator(ir::ComputeOp::Gemv);
}
TEST_CASE("cpu fused: embedding-bag + AllToAll is bit-exact") { sweepOperator(ir::ComputeOp::EmbeddingBag); }
TEST_CASE("cpu fused: GEMM + AllToAll is bit-exact") { sweepOperator(ir::ComputeOp::Gemm); }

TEST_CASE("cpu fused: LL and LL128 fused programs are bit-exact") {
  uint32_t seed = 500;
  for (ir::ComputeOp op : {ir::ComputeOp::Gemv, ir::ComputeOp::Gemm})
    for (ir::Protocol proto : {ir::Protocol::LL, ir::Protocol::LL128})
      for (int32_t computeTbs : {0, 2}) {
        FusedParameters p = shape(op, 4, 2, 12, 1);
        p.protocol = proto;
        p.computeTbs = computeTbs;
        runAndCheck(p, 0, 2, seed++);
      }
}

TEST_CASE("cpu fused: a call whose size is not the product's is refused") {
  FusedParameters p = shape(ir::ComputeOp::Gemv, 2, 1, 4, 0);
  const ExecutableProgram program = ExecutableProgram::compile(algorithms::fusedProgram(p), "gemv");
  CallShape call;
  call.collective = semantics::CollectiveType::AllReduce;
  call.ranks = 2;
  call.form = semantics::CallForm::OutOfPlace;
  call.count = 16;  // the product has 8 elements
  std::unique_ptr<Target> target = makeCpuTarget({});
  CHECK_THROWS_AS(target->prepare(program, call), std::invalid_argument);
}

// The summation order every backend shares (runtime/core/compute.hpp): the terms in quads, lane
// l taking quads l, l + 32, ... in index order by fused multiply-add, the 32 lane sums combined
// by the xor butterfly. Values chosen so that this order and the plain index order round
// differently, so the test can tell them apart.
TEST_CASE("cpu fused: a product element is summed in the documented lane order") {
  // In index order the ones after 1e8 are lost to rounding until -1e8 cancels it (sum 11);
  // lane 0 holds both large terms (quads 0 and 32), so in lane order only its ones next to 1e8
  // are lost (sum 135).
  const int32_t inner = 140;
  std::vector<float> w(inner, 1.0f), x(inner, 1.0f);
  w[0] = 1e8f;
  w[128] = -1e8f;
  ComputeTable c;
  c.op = ir::ComputeOp::Gemv;
  c.rows = 1;
  c.cols = 1;
  c.inner = inner;
  c.a = OperandView{w.data(), 1, inner, inner, 1};
  c.b = OperandView{x.data(), inner, 1, 1, 0};
  float lanes[32] = {};
  for (int32_t k = 0; k < inner; ++k) {
    const int32_t lane = k / 4 % 32;
    lanes[lane] = std::fma(w[static_cast<size_t>(k)], x[static_cast<size_t>(k)], lanes[lane]);
  }
  for (int32_t h : {16, 8, 4, 2, 1}) {
    float next[32];
    for (int32_t l = 0; l < 32; ++l) next[l] = lanes[l] + lanes[l ^ h];
    std::copy(std::begin(next), std::end(next), std::begin(lanes));
  }
  float indexOrder = 0;
  for (int32_t k = 0; k < inner; ++k) indexOrder += w[static_cast<size_t>(k)];
  CHECK(indexOrder == 11.0f);
  CHECK(lanes[0] == 135.0f);
  const float got = productElement(c, 0);
  CHECK(std::memcmp(&got, &lanes[0], sizeof got) == 0);
}
