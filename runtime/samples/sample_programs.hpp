// Hand-built MSCCL-IR programs for tests and benchmarks, written the way the MSCCLang compiler
// lowers the classic algorithms (until the DSL compiler's library is available):
// ring and all-pairs allreduce, two-step (hierarchical) alltoall, ring allgather and reducescatter.
// `k` is the number of chunks each step moves (its cnt), so both count-splitting regimes occur.
#pragma once

#include <cstdint>

#include "semantics/collective.hpp"
#include "ir/model.hpp"

namespace ccforge::runtime::samples {

struct SampleOptions {
  semantics::CallForm form = semantics::CallForm::OutOfPlace;
  ir::Protocol proto = ir::Protocol::Simple;
  int32_t chunksPerStep = 1;  // k
  int32_t channels = 1;       // ring allreduce: rings on separate channels over disjoint chunks
};

// One tb per channel per rank; reduce-scatter then allgather around the ring (s, rrs.., rrcs, rcs.., r).
ir::Algorithm ringAllReduce(int32_t ranks, const SampleOptions& options);
// Each rank sends every peer its share, a reducer tb sums the received shares with a fused `re`
// chain (after nop dependencies on every receiver), then each peer tb sends the result back.
ir::Algorithm allPairsAllReduce(int32_t ranks, const SampleOptions& options);
// nodes x gpusPerNode ranks: chunks for another node go to the local relay with the destination's
// local index, which forwards all of them in one step (cnt = gpusPerNode * k). Out of place.
ir::Algorithm twoStepAllToAll(int32_t nodes, int32_t gpusPerNode, const SampleOptions& options);
ir::Algorithm ringAllGather(int32_t ranks, const SampleOptions& options);
ir::Algorithm ringReduceScatter(int32_t ranks, const SampleOptions& options);

}  // namespace ccforge::runtime::samples
