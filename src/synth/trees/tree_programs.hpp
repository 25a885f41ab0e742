// Lowering packed trees to MSCCLang DSL programs (then codegen::compile to MSCCL-IR):
//   allgather      every root's chunk is cut into pieces; each tree broadcasts its pieces
//                  from the root, level by level (a piece moves on as soon as it arrives:
//                  the runtime pipelines tiles and the compiler fuses receive-and-forward);
//   reducescatter  trees packed on the reversed links are in-trees: pieces are reduced from
//                  the leaves up, partial sums in scratch, into the root's output (inputs
//                  are only read: the program serves out-of-place calls);
//   allreduce      reducescatter's trees, then allgather's trees, in place.
// The pieces of every GPU pair are spread over `channels` connections (one thread block each
// end, never shared between sending and receiving), so that a pair is not held to one
// connection's bandwidth, and the program is pipelined over `rounds` rounds. Reductions sum
// each parent's received contributions pairwise on thread blocks of their own.
#pragma once

#include <cstdint>
#include <string>

#include "dsl/program.hpp"
#include "synth/trees/arborescence_packing.hpp"

namespace ccforge::synth::trees {

struct Lowering {
  int32_t channels = 1;   // connections per GPU pair
  int32_t rounds = 1;     // pipeline rounds: each tree's pieces are cut this many times more
  int32_t maxSteps = 64;  // steps per thread block the target allows
  ir::Protocol protocol = ir::Protocol::Simple;
};

dsl::Program allGatherProgram(const std::string& name, const Packing& trees, const Lowering& how);
// `inTrees` were packed on the reversed links: an edge (parent, child) moves data child -> parent.
dsl::Program reduceScatterProgram(const std::string& name, const Packing& inTrees, const Lowering& how);
dsl::Program allReduceProgram(const std::string& name, const Packing& inTrees, const Packing& outTrees,
                              const Lowering& how);

}  // namespace ccforge::synth::trees
