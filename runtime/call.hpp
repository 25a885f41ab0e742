// One collective call as the caller states it (collective, ranks, count, type, op, form) and
// the user buffers of each rank, with the sizes and aliasing rules NCCL's API implies.
// `count` follows NCCL: elements per rank for allreduce/broadcast/reduce, the per-rank share
// for allgather/reducescatter/alltoall (m = ranks, msccl-ir.md §2 "Chunks and tiles").
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "runtime/core/data_type.hpp"
#include "semantics/collective.hpp"

namespace ccforge::runtime {

struct CallShape {
  semantics::CollectiveType collective = semantics::CollectiveType::AllReduce;
  int32_t root = 0;  // rooted collectives only
  int32_t ranks = 1;
  semantics::CallForm form = semantics::CallForm::OutOfPlace;
  int64_t count = 0;
  DataType dtype = DataType::F32;
  ReduceOp op = ReduceOp::Sum;
};

// The collectives the runtime can run and check (not custom ones: their definition is not in the IR).
bool runtimeSupports(semantics::CollectiveType t);
// m: the selectors' multiplier (semantics/selection.hpp), signed as the runtime's counts are.
int64_t sizeMultiplier(semantics::CollectiveType t, int32_t ranks);
// count * m * element size: the size MSCCL selects programs by.
int64_t totalBytes(const CallShape& call);
// Whether the collective reduces (so `op` matters).
bool reduces(semantics::CollectiveType t);

// Element counts of one rank's user buffers. In place there is one buffer of `regionElems`.
struct BufferSizes {
  int64_t inputElems = 0;
  int64_t outputElems = 0;
  int64_t regionElems = 0;        // in place: the shared buffer
  int64_t inputOffsetElems = 0;   // in place: where the input starts in the shared buffer
  int64_t outputOffsetElems = 0;  // in place: where the output starts
};
// Throws std::invalid_argument (user-facing) when the call makes no sense: unsupported
// collective, ranks < 1, negative count, root out of range, gather/scatter count not a
// multiple of the rank count.
BufferSizes bufferSizes(const CallShape& call, int32_t rank);
// The canonical collective (one chunk per rank share) the reference and the check use, and its chunk.
semantics::Collective canonicalCollective(const CallShape& call);
int64_t canonicalChunkElems(const CallShape& call);

// A rank's user buffers (host or device pointers, depending on the backend). In place,
// `send` must point into `recv` as NCCL requires (allgather: recv + rank*count, reducescatter:
// recv = send + rank*count, otherwise equal); `sendElems`/`recvElems` are the caller's sizes.
// Fused programs (docs/fused.md): `send` is the product buffer the compute steps write (writable
// memory), and `operands` the rank's read-only operands a and b of its <product>.
struct RankBuffers {
  const void* send = nullptr;
  int64_t sendElems = 0;
  void* recv = nullptr;
  int64_t recvElems = 0;
  const void* operands[2] = {nullptr, nullptr};
};

// Throws std::invalid_argument naming the rank and the expected size when the buffers do not fit
// the call (wrong number of ranks, sizes, null pointers, in-place aliasing).
void validateBuffers(const CallShape& call, std::span<const RankBuffers> buffers);

std::string describeCall(const CallShape& call);

}  // namespace ccforge::runtime
