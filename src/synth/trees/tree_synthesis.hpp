// Throughput-optimal allgather, reducescatter and allreduce (as reducescatter + allgather) by
// spanning-tree packing after switch removal (docs/synth-trees.md): bound -> switch removal ->
// arborescence packing -> DSL program -> MSCCL-IR within the target's limits.
#pragma once

#include <cstdint>
#include <string>

#include "codegen/compiler.hpp"
#include "semantics/collective.hpp"
#include "semantics/topology/topology.hpp"
#include "synth/trees/deadline.hpp"

namespace ccforge::synth::trees {

struct TreeSynthesisOptions {
  ir::Protocol protocol = ir::Protocol::Simple;
  double timeoutSeconds = 600;
  int64_t maxTreesPerRoot = 64;  // pieces per root's chunk stay below this
  int32_t rounds = 4;            // pipeline rounds (tree_programs.hpp)
  codegen::TargetProfile target = codegen::executorTarget();
};

struct TreeSynthesis {
  CollectiveType collective = CollectiveType::AllGather;
  int32_t ranks = 0;
  int32_t piecesPerRoot = 0;  // trees per root (with multiplicity), the chunk factor
  int64_t distinctTrees = 0;
  int32_t channels = 0;
  int32_t depth = 0;              // levels of the trees (allreduce: both phases)
  int64_t busiestPairPieces = 0;  // pieces over the most loaded ordered GPU pair (one phase)
  topo::Rational boundAlgbwGBps;   // the cut bound (allreduce: of reducescatter + allgather)
  topo::Rational packedAlgbwGBps;  // what the packing itself achieves, exact
  int64_t maxFlows = 0;
  codegen::Compiled compiled;
};

// Throws std::invalid_argument for a collective other than allgather, reducescatter and
// allreduce or a topology with fewer than 2 GPUs; InputError when the GPUs are not connected;
// SynthesisLimit past the time limit; codegen::CompileError when no schedule fits the target.
TreeSynthesis synthesizeTrees(const topo::Topology& topology, CollectiveType collective,
                              const TreeSynthesisOptions& options = {});

}  // namespace ccforge::synth::trees
