#include "runtime/harness.hpp"

#include <chrono>
#include <cstring>
#include <future>
#include <random>
#include <vector>

#include "runtime/core/poison.hpp"
#include "runtime/type_dispatch.hpp"

namespace ccforge::runtime {
namespace {

template <class T>
T randomValue(std::mt19937_64& rng, ReduceOp op) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(rng());
  } else {
    const double unit = static_cast<double>(rng() >> 11) * 0x1.0p-53;  // [0, 1)
    double v;
    if (op == ReduceOp::Prod)
      v = (rng() & 1 ? 1 : -1) * (0.8 + 0.45 * unit);
    else
      v = 2 * unit - 1;
    if constexpr (std::is_same_v<T, Half>)
      return toHalf(static_cast<float>(v));
    else if constexpr (std::is_same_v<T, BFloat16>)
      return toBFloat16(static_cast<float>(v));
    else
      return static_cast<T>(v);
  }
}

// Owns one rank's buffers on the target.
struct RankAllocation {
  Target* target = nullptr;
  int32_t rank = 0;
  void* first = nullptr;   // send buffer (out of place) or the shared buffer (in place)
  void* second = nullptr;  // receive buffer (out of place)
  ~RankAllocation() {
    if (first) target->release(rank, first);
    if (second) target->release(rank, second);
  }
};

}  // namespace

void fillRandom(DataType t, ReduceOp op, void* data, int64_t elems, uint64_t seed) {
  dispatchType(t, [&]<class T>() {
    std::mt19937_64 rng(seed);
    T* p = static_cast<T*>(data);
    for (int64_t i = 0; i < elems; ++i) p[i] = randomValue<T>(rng, op);
  });
}

Measurement measure(Runtime& runtime, const CallShape& call, const MeasureOptions& options) {
  Target& target = runtime.target();
  const size_t elem = dataTypeSize(call.dtype);
  std::vector<RankAllocation> allocations(call.ranks);
  std::vector<RankBuffers> buffers(call.ranks);
  std::vector<std::vector<unsigned char>> inputs(call.ranks);
  std::vector<unsigned char> poison;
  const bool sendHoldsRegion = call.collective == semantics::CollectiveType::ReduceScatter ||
                               call.collective == semantics::CollectiveType::Scatter;
  {
    // Each rank's input has its own seed, so filling them concurrently gives the same data.
    std::vector<std::future<void>> fills;
    for (int32_t r = 0; r < call.ranks; ++r)
      fills.push_back(std::async(std::launch::async, [&, r] {
        const int64_t elems = bufferSizes(call, r).inputElems;
        inputs[r].resize(static_cast<size_t>(elems) * elem);
        fillRandom(call.dtype, call.op, inputs[r].data(), elems, options.seed * 1000003 + r);
      }));
    for (std::future<void>& f : fills) f.get();
  }
  for (int32_t r = 0; r < call.ranks; ++r) {
    const BufferSizes s = bufferSizes(call, r);
    RankAllocation& a = allocations[r];
    a.target = &target;
    a.rank = r;
    RankBuffers& b = buffers[r];
    b.sendElems = s.inputElems;
    b.recvElems = s.outputElems;
    if (call.form == semantics::CallForm::OutOfPlace) {
      a.first = target.allocate(r, s.inputElems * elem);
      a.second = target.allocate(r, s.outputElems * elem);
      b.send = a.first;
      b.recv = a.second;
      poison.assign(s.outputElems * elem, kPoisonByte);  // an element never written fails the check
      target.upload(r, a.second, poison.data(), poison.size());
      target.upload(r, a.first, inputs[r].data(), inputs[r].size());
    } else {
      a.first = target.allocate(r, s.regionElems * elem);
      unsigned char* region = static_cast<unsigned char*>(a.first);
      b.send = region + s.inputOffsetElems * elem;
      b.recv = region + s.outputOffsetElems * elem;
      (sendHoldsRegion ? b.sendElems : b.recvElems) = s.regionElems;
      poison.assign(s.regionElems * elem, kPoisonByte);
      target.upload(r, region, poison.data(), poison.size());
      target.upload(r, const_cast<void*>(b.send), inputs[r].data(), inputs[r].size());
    }
  }

  Measurement m;
  m.bytes = totalBytes(call);
  m.result = runtime.run(call, buffers);
  std::vector<std::vector<unsigned char>> outputs(call.ranks);
  std::vector<const void*> in(call.ranks), out(call.ranks);
  for (int32_t r = 0; r < call.ranks; ++r) {
    outputs[r].resize(bufferSizes(call, r).outputElems * elem);
    target.download(r, outputs[r].data(), buffers[r].recv, outputs[r].size());
    in[r] = inputs[r].data();
    out[r] = outputs[r].data();
  }
  m.check = checkOutputs(call, in, out);

  if (options.iterations > 0) {
    for (int i = 0; i < options.warmup; ++i) runtime.run(call, buffers, false);
    runtime.synchronize();
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < options.iterations; ++i) runtime.run(call, buffers, false);
    runtime.synchronize();
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    m.secondsPerIteration = elapsed.count() / options.iterations;
    m.algorithmBandwidth = m.secondsPerIteration > 0 ? static_cast<double>(m.bytes) / m.secondsPerIteration / 1e9 : 0;
    m.busBandwidth = m.algorithmBandwidth * busBandwidthFactor(call.collective, call.ranks);
  }
  return m;
}

}  // namespace ccforge::runtime
