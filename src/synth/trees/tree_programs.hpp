// Lowering packed trees to MSCCLang DSL programs (then codegen::compile to MSCCL-IR):
//   allgather      every root's chunk is cut into pieces; each tree broadcasts its pieces
//                  from the root, level by level (a piece moves on as soon as it arrives:
//                  the runtime pipelines tiles and the compiler fuses receive-and-forward);
//   reducescatter  trees packed on the reversed links are in-trees: pieces are reduced from
//                  the leaves up and the root copies the sum to its output;
//   allreduce      reducescatter's trees, then allgather's trees, in place.
// The whole program is parallelized over `channels` channels (every piece cut in that many
// parts, each part on its own connection), so that a pair of GPUs is not held to one
// connection's bandwidth.
#pragma once

#include <cstdint>
#include <string>

#include "semantics/dsl/program.hpp"
#include "synth/trees/arborescence_packing.hpp"

namespace ccforge::synth::trees {

dsl::Program allGatherProgram(const std::string& name, const Packing& trees, int32_t channels,
                              ir::Protocol protocol);
// `inTrees` were packed on the reversed links: an edge (parent, child) moves data child -> parent.
dsl::Program reduceScatterProgram(const std::string& name, const Packing& inTrees, int32_t channels,
                                  ir::Protocol protocol);
dsl::Program allReduceProgram(const std::string& name, const Packing& inTrees, const Packing& outTrees,
                              int32_t channels, ir::Protocol protocol);

}  // namespace ccforge::synth::trees
