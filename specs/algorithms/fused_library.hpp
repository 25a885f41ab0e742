// Fused computation + collective programs (docs/fused.md), written straight as MSCCL-IR: a
// compute thread block produces the rank's product slice by slice (compute steps), and the
// communication blocks start on each slice as soon as its producer publishes it. The
// bulk-synchronous baseline is the same program whose communication waits for the last compute
// step. Operators: GEMV + AllReduce (y = sum_r W_r x_r), embedding-bag pooling + AllToAll (DLRM),
// GEMM + AllToAll (an MoE expert's output back to the tokens' ranks).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ir/model.hpp"

namespace ccforge::algorithms {

enum class FusedOrder : uint8_t {
  Natural,      // product chunks 0, 1, 2, ...
  RemoteFirst,  // the slices other ranks wait for first (rank r+1's, r+2's, ...), the rank's own last
};

struct FusedParameters {
  ir::ComputeOp op = ir::ComputeOp::Gemv;
  int32_t ranks = 2;
  int32_t chunksPerRank = 1;  // slice granularity: product chunks per destination rank
  FusedOrder order = FusedOrder::Natural;
  bool bulkSynchronous = false;  // compute everything, then the collective
  int32_t computeTbs = 1;        // thread blocks per rank that compute (slices dealt round-robin); 0: the
                                 // communication blocks compute what they send
  int32_t chunksPerStep = 1;     // a communication step moves this many consecutive chunks (divides
                                 // chunksPerRank): fewer handshakes, the same compute granularity
  int32_t lanes = 1;             // copies of the local, send and receive blocks, each on channels of its
                                 // own; lane h moves groups h, h + lanes, ... (lanes divides the groups
                                 // per destination): with computetbs=0 a slice's compute spreads over
                                 // lanes blocks without a flag between blocks
  // gemv: rows = M, inner = K. embag: rows = batch, cols = dim, inner = pooling, tableRows.
  // gemm: rows = tokens, inner = hidden, cols = ffn.
  int32_t rows = 0;
  int32_t cols = 1;
  int32_t inner = 0;
  int32_t tableRows = 0;
  ir::Protocol protocol = ir::Protocol::Simple;
};

// Throws std::invalid_argument (user-facing) for parameters that do not fit: rows not a multiple
// of ranks * chunksPerRank, more steps per thread block than the executor stores, ...
ir::Algorithm fusedProgram(const FusedParameters& p);

// The library entries: gemv-allreduce, embedding-alltoall, gemm-alltoall with their knobs
// (key=value: ranks, chunks, order=0 natural / 1 remote-first, bulk=0/1, computetbs, group, lanes, and
// the shape).
struct FusedEntry {
  std::string name;
  std::string summary;
  ir::ComputeOp op;
  std::vector<std::string> shapeKeys;  // the shape parameters, in FusedParameters' meaning
};
const std::vector<FusedEntry>& fusedLibrary();
const FusedEntry* findFused(std::string_view name);
// NAME key=value...; throws std::invalid_argument for unknown names or keys and bad values.
FusedParameters fusedParameters(std::string_view name, const std::vector<std::string>& settings);

}  // namespace ccforge::algorithms
