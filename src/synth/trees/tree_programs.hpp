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
  int32_t channels = 1;  // connections per GPU pair and tree
  // Trees are dealt to this many groups of `channels` channels each (by root, tree_programs.cpp),
  // so that a thread block carries the transfers of fewer trees: a GPU pair that many trees
  // cross (a rail link, a box link on many boxes) would otherwise pass the target's steps per
  // thread block, which more channels per tree do not lower.
  int32_t channelGroups = 1;
  int32_t rounds = 1;     // pipeline rounds: each tree's pieces are cut this many times more
  int32_t maxSteps = 64;  // steps per thread block the target allows
  ir::Protocol protocol = ir::Protocol::Simple;
};

// The channel group of a tree rooted at `root`: roots are dealt in blocks of consecutive ranks,
// so that on boxes of consecutive ranks every group holds the trees of as many boxes and a GPU
// pair inside a box carries as many trees on each group.
int32_t channelGroupOf(int32_t root, int32_t groups, int32_t ranks);

dsl::Program allGatherProgram(const std::string& name, const Packing& trees, const Lowering& how);
// `inTrees` were packed on the reversed links: an edge (parent, child) moves data child -> parent.
dsl::Program reduceScatterProgram(const std::string& name, const Packing& inTrees, const Lowering& how);
dsl::Program allReduceProgram(const std::string& name, const Packing& inTrees, const Packing& outTrees,
                              const Lowering& how);

}  // namespace ccforge::synth::trees
