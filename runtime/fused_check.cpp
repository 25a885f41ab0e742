#include "runtime/fused_check.hpp"

#include "runtime/fused_operands.hpp"

#include <bit>
#include <chrono>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

namespace ccforge::runtime {
namespace {

// Element (i, j) of an operand stored as the file declares it.
template <class T>
T at(const std::vector<T>& data, const ir::Operand& o, int64_t i, int64_t j) {
  return data[static_cast<size_t>(o.columnMajor ? j * o.rows + i : i * o.cols + j)];
}

struct RankOperands {
  std::vector<float> a, b;
  std::vector<int32_t> indices;
  std::vector<float> product;  // the plain reference, row-major
};

RankOperands makeOperands(const ir::Gpu& g, std::mt19937_64& rng) {
  const ir::Product& p = *g.product;
  const ir::Operand& A = g.operands.at(static_cast<size_t>(p.a));
  const ir::Operand& B = g.operands.at(static_cast<size_t>(p.b));
  std::uniform_int_distribution<int> small(-2, 2);
  RankOperands r;
  r.a.resize(static_cast<size_t>(A.rows) * A.cols);
  for (float& v : r.a) v = static_cast<float>(small(rng));
  if (B.dtype == ir::OperandType::I32) {
    std::uniform_int_distribution<int32_t> index(0, A.rows - 1);
    r.indices.resize(static_cast<size_t>(B.rows) * B.cols);
    for (int32_t& v : r.indices) v = index(rng);
  } else {
    r.b.resize(static_cast<size_t>(B.rows) * B.cols);
    for (float& v : r.b) v = static_cast<float>(small(rng));
  }
  r.product.assign(static_cast<size_t>(p.rows) * p.cols, 0.0f);
  for (int64_t i = 0; i < p.rows; ++i)
    for (int64_t j = 0; j < p.cols; ++j) {
      double sum = 0;  // exact: small integers
      if (p.op == ir::ComputeOp::EmbeddingBag)
        for (int64_t l = 0; l < B.cols; ++l) sum += at(r.a, A, at(r.indices, B, i, l), j);
      else
        for (int64_t k = 0; k < A.cols; ++k) sum += static_cast<double>(at(r.a, A, i, k)) * at(r.b, B, k, j);
      r.product[static_cast<size_t>(i * p.cols + j)] = static_cast<float>(sum);
    }
  return r;
}

}  // namespace

FusedRunResult runFusedChecked(Target& target, const ExecutableProgram& program, uint64_t seed, int iterations) {
  const ir::Algorithm& a = program.algorithm();
  if (!a.fused) throw std::invalid_argument(program.source() + " is not a fused program");
  const int32_t R = program.ranks();
  const bool allreduce = program.collective() == semantics::CollectiveType::AllReduce;
  if (!allreduce && program.collective() != semantics::CollectiveType::AllToAll)
    throw std::invalid_argument(program.source() + ": fused programs run with allreduce or alltoall");
  std::mt19937_64 rng(seed);
  std::vector<RankOperands> ops;
  int64_t elems = -1;
  for (int32_t r = 0; r < R; ++r) {
    const ir::Gpu& g = gpuOfRank(a, r);
    if (!g.product)
      throw std::invalid_argument(program.source() + ": rank " + std::to_string(r) + " declares no <product>");
    const int64_t e = static_cast<int64_t>(g.product->rows) * g.product->cols;
    if (elems >= 0 && e != elems)
      throw std::invalid_argument(program.source() + ": the ranks' products differ in size");
    elems = e;
    ops.push_back(makeOperands(g, rng));
  }
  FusedRunResult result;
  CallShape& call = result.call;
  call.collective = program.collective();
  call.ranks = R;
  call.form = semantics::CallForm::OutOfPlace;
  call.count = allreduce ? elems : elems / R;
  call.dtype = DataType::F32;
  std::unique_ptr<Executor> executor = target.prepare(program, call);

  const size_t bytes = sizeof(float) * static_cast<size_t>(elems);
  std::vector<RankBuffers> buffers(static_cast<size_t>(R));
  std::vector<std::pair<int32_t, void*>> owned;
  auto device = [&](int32_t r, const void* host, size_t n) {
    void* d = target.allocate(r, n);
    owned.emplace_back(r, d);
    if (host) target.upload(r, d, host, n);
    return d;
  };
  std::vector<float> poison(static_cast<size_t>(elems), -77777.0f);
  for (int32_t r = 0; r < R; ++r) {
    RankBuffers& b = buffers[static_cast<size_t>(r)];
    const RankOperands& o = ops[static_cast<size_t>(r)];
    b.send = device(r, poison.data(), bytes);
    b.sendElems = elems;
    b.recv = device(r, poison.data(), bytes);
    b.recvElems = elems;
    b.operands[0] = device(r, o.a.data(), sizeof(float) * o.a.size());
    b.operands[1] = o.indices.empty() ? device(r, o.b.data(), sizeof(float) * o.b.size())
                                      : device(r, o.indices.data(), sizeof(int32_t) * o.indices.size());
  }
  try {
    executor->launch(buffers);
    executor->wait();
    const int64_t share = elems / R;
    std::vector<float> out(static_cast<size_t>(elems));
    for (int32_t r = 0; r < R; ++r) {
      target.download(r, out.data(), buffers[static_cast<size_t>(r)].recv, bytes);
      for (int64_t e = 0; e < elems; ++e) {
        float expected = 0;
        if (allreduce)
          for (int32_t s = 0; s < R; ++s) expected += ops[static_cast<size_t>(s)].product[static_cast<size_t>(e)];
        else
          expected = ops[static_cast<size_t>(e / share)].product[static_cast<size_t>(r * share + e % share)];
        if (std::bit_cast<uint32_t>(expected) == std::bit_cast<uint32_t>(out[static_cast<size_t>(e)])) continue;
        if (result.wrongElements++ == 0)
          result.firstWrong = "rank " + std::to_string(r) + " element " + std::to_string(e) + ": " +
                              std::to_string(out[static_cast<size_t>(e)]) + ", expected " + std::to_string(expected);
      }
    }
    if (iterations > 0) {
      const auto start = std::chrono::steady_clock::now();
      for (int i = 0; i < iterations; ++i) executor->launch(buffers);
      executor->wait();
      result.secondsPerIteration =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / iterations;
    }
  } catch (...) {
    for (auto& [r, p] : owned) target.release(r, p);
    throw;
  }
  for (auto& [r, p] : owned) target.release(r, p);
  return result;
}

}  // namespace ccforge::runtime
