#include "runtime/reference.hpp"

#include <cstring>
#include <vector>

#include "runtime/type_dispatch.hpp"

namespace ccforge::runtime {

std::vector<std::vector<ChunkSource>> outputSources(const CallShape& call, int32_t rank) {
  const semantics::Collective c = canonicalCollective(call);
  semantics::ChunkValues values;
  std::vector<std::vector<ChunkSource>> out(c.outputChunks());
  for (int32_t k = 0; k < c.outputChunks(); ++k) {
    const std::optional<semantics::ChunkValues::Id> v = c.expectedOutput(values, rank, k);
    if (!v) continue;
    for (const semantics::Atom& a : values.atoms(*v)) out[k].push_back(ChunkSource{a.rank, a.index});
  }
  return out;
}

namespace {

template <class T>
T divideByRanks(T v, int32_t ranks) {
  if constexpr (std::is_same_v<T, Half>)
    return toHalf(toFloat(v) / static_cast<float>(ranks));
  else if constexpr (std::is_same_v<T, BFloat16>)
    return toBFloat16(toFloat(v) / static_cast<float>(ranks));
  else
    return static_cast<T>(v / static_cast<T>(ranks));
}

template <class T>
T combine(ReduceOp op, T a, T b) {
  switch (op) {
    case ReduceOp::Sum:
    case ReduceOp::Avg: return OpSum::apply<T>(a, b);
    case ReduceOp::Prod: return OpProd::apply<T>(a, b);
    case ReduceOp::Min: return OpMin::apply<T>(a, b);
    case ReduceOp::Max: return OpMax::apply<T>(a, b);
  }
  return a;
}

template <class T>
void reference(const CallShape& call, std::span<const RankBuffers> buffers) {
  const int64_t chunk = canonicalChunkElems(call);
  // Snapshot every input first: in place, outputs overwrite inputs.
  std::vector<std::vector<T>> inputs(call.ranks);
  for (int32_t r = 0; r < call.ranks; ++r) {
    const int64_t n = bufferSizes(call, r).inputElems;
    inputs[r].resize(n);
    if (n) std::memcpy(inputs[r].data(), buffers[r].send, n * sizeof(T));
  }
  for (int32_t r = 0; r < call.ranks; ++r) {
    T* out = static_cast<T*>(buffers[r].recv);
    const auto sources = outputSources(call, r);
    for (size_t k = 0; k < sources.size(); ++k) {
      const auto& from = sources[k];
      if (from.empty()) continue;
      for (int64_t e = 0; e < chunk; ++e) {
        T acc = inputs[from[0].rank][from[0].chunk * chunk + e];
        for (size_t i = 1; i < from.size(); ++i)
          acc = combine<T>(call.op, acc, inputs[from[i].rank][from[i].chunk * chunk + e]);
        if (call.op == ReduceOp::Avg && reduces(call.collective)) acc = divideByRanks<T>(acc, call.ranks);
        out[static_cast<int64_t>(k) * chunk + e] = acc;
      }
    }
  }
}

}  // namespace

void runReference(const CallShape& call, std::span<const RankBuffers> buffers) {
  validateBuffers(call, buffers);
  if (call.count == 0) return;
  dispatchType(call.dtype, [&]<class T>() { reference<T>(call, buffers); });
}

}  // namespace ccforge::runtime
