// Throughput-optimal allgather, reducescatter and allreduce (as reducescatter + allgather) by
// spanning-tree packing after switch removal (docs/synth-trees.md): bound -> switch removal ->
// arborescence packing -> DSL program -> MSCCL-IR within the target's limits.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "codegen/compiler.hpp"
#include "semantics/collective.hpp"
#include "topology/topology.hpp"
#include "synth/trees/deadline.hpp"

namespace ccforge::synth::trees {

// Packing: ForestColl's tree packing (throughput-optimal). Hierarchical: intra-box broadcast
// plus inter-box exchange on rails (hierarchical.hpp). Rings: rings inside boxes without a
// switch, after the rail exchange on several boxes (box_rings.hpp); allgather only. RingsSplit:
// the same rings on several boxes with second entries (ring_programs.hpp), for large sizes.
// TwoStep: alltoall on identical boxes joined by rails (rail_alltoall.hpp); alltoall only.
enum class Composition : uint8_t { Packing, Hierarchical, Rings, RingsSplit, TwoStep };
// "trees", "hierarchical", "rings", "rings-split", "two-step"
std::string_view compositionName(Composition c);

struct TreeSynthesisOptions {
  Composition composition = Composition::Packing;
  ir::Protocol protocol = ir::Protocol::Simple;
  double timeoutSeconds = 600;
  // The caller's time limit when it bounds more than this synthesis (a run of several
  // compositions); timeoutSeconds is then unused.
  const Deadline* deadline = nullptr;
  int64_t maxTreesPerRoot = 64;  // the packing's k (trees per root) is at most this
  // Pipeline depths tried in increasing order (tree_programs.hpp) until one does not fit the
  // target; the simulator picks the fastest at simulatedBytes among those that fit.
  std::vector<int32_t> rounds = {2, 4, 8, 16};
  int32_t maxChannels = 4;  // connections per GPU pair, fewer when the limits demand
  uint64_t simulatedBytes = uint64_t{1} << 30;
  semantics::RuntimeProfile target = semantics::executorProfile();
  // Called as each lowering is tried ("lowering 1 channel group x 4 channels x 2 rounds"): CLI
  // progress; the phases before it name the composition.
  std::function<void(const std::string&)> progress = {};
};

struct TreeSynthesis {
  semantics::CollectiveType collective = semantics::CollectiveType::AllGather;
  int32_t ranks = 0;
  int32_t piecesPerRoot = 0;  // chunks per root's share: trees per root x rounds (rings: x lanes)
  int64_t distinctTrees = 0;
  int32_t channels = 0;
  int32_t rounds = 0;
  double simulatedAlgbwGBps = 0;   // of the chosen lowering at simulatedBytes
  int32_t depth = 0;               // levels of the trees (allreduce: both phases)
  int64_t busiestPairPieces = 0;   // pieces over the most loaded ordered GPU pair (one phase)
  topo::Rational boundAlgbwGBps;   // the cut bound (allreduce: of reducescatter + allgather)
  topo::Rational packedAlgbwGBps;  // what the trees achieve routed on the topology, exact
  int64_t maxFlows = 0;
  codegen::Compiled compiled;  // out of place
  // The same schedule for in-place calls, where the composition has one (rings).
  std::optional<codegen::Compiled> inPlace;
};

// Every lowering tried is simulated on the topology (sim/simulate.hpp); the fastest is kept.
// Throws std::invalid_argument for a collective other than allgather, reducescatter and
// allreduce (rings: other than allgather, or boxes without rings; two-step: other than alltoall,
// or not boxes of equally many GPUs) or a topology with fewer than 2 GPUs; InputError when
// the GPUs are not connected; SynthesisLimit past the time limit; codegen::CompileError when no schedule fits the
// target.
TreeSynthesis synthesizeTrees(const topo::Topology& topology, semantics::CollectiveType collective,
                              const TreeSynthesisOptions& options = {});

}  // namespace ccforge::synth::trees
