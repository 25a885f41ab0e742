// Lowering of reductions along trees (src/synth/trees/tree_programs.cpp): the sums and the
// root's copy into its output run on thread blocks of their own, so that the sends they feed
// are not held up; contributions are sent in a shift order (box b feeds the roots of box b+1
// first); a root sums what came over the network in its first slots.
#include <catch2/catch.hpp>

#include <cstdint>
#include <map>
#include <vector>

#include "topology/spec_reader.hpp"
#include "synth/trees/hierarchical.hpp"
#include "synth/trees/tree_programs.hpp"
#include "synth/trees/tree_synthesis.hpp"

using namespace ccforge;
using namespace ccforge::synth::trees;

namespace {

constexpr int32_t kPerBox = 8;  // a100-N: 8 GPUs a box, ranks box by box

int32_t boxOf(int32_t rank) { return rank / kPerBox; }

// Local steps (copies, reductions) on a thread block that sends or receives.
int64_t localStepsOnConnections(const ir::Algorithm& a) {
  int64_t n = 0;
  for (const ir::Gpu& gpu : a.gpus)
    for (const ir::ThreadBlock& tb : gpu.threadBlocks)
      for (const ir::Step& step : tb.steps)
        if ((step.type == ir::OpType::Reduce || step.type == ir::OpType::Copy) && (tb.send >= 0 || tb.recv >= 0)) ++n;
  return n;
}

// One chunk per root and one round: a contribution's input index is its root.
dsl::Program oneChunkReduceScatter(const topo::Topology& t) {
  return reduceScatterProgram("rs", hierarchicalTrees(t, RailShape::Star), {.channels = 1, .rounds = 1});
}

}  // namespace

TEST_CASE("trees: 4 x 8 A100 hierarchical reducescatter keeps local work off the connections, above 95% of the bound") {
  // topologies.md: 266.67 GB/s (the NICs). Summed on the receiving thread blocks, the reductions
  // held up the network sends: 81.6%; with the root's final copy on a send block, that block
  // could not start its next tile iteration before the NICs had delivered the last one: 87.4%
  // (docs/benchmarks.md).
  const topo::Topology t = topo::loadTopology("a100-4");
  const TreeSynthesis s =
      synthesizeTrees(t, semantics::CollectiveType::ReduceScatter, {.composition = Composition::Hierarchical});
  CHECK(s.simulatedAlgbwGBps >= 0.95 * 800 / 3);
  CHECK(localStepsOnConnections(s.compiled.algorithm) == 0);
}

TEST_CASE("trees: 4 x 8 A100 hierarchical allreduce is above 94% of the bound") {
  // Half of 266.67 GB/s. 88.7% before the shift order and the slot order below (87.6% with the
  // shift order alone: the compiler then put the contributions behind the network's last).
  const topo::Topology t = topo::loadTopology("a100-4");
  const TreeSynthesis s =
      synthesizeTrees(t, semantics::CollectiveType::AllReduce, {.composition = Composition::Hierarchical});
  CHECK(s.simulatedAlgbwGBps >= 0.94 * 400 / 3);
}

TEST_CASE("trees: reducescatter contributions go out in shift order, the roots of the next box first") {
  // In tree order every box would feed box 0's roots first: three NICs sending into one.
  const topo::Topology t = topo::loadTopology("a100-4");
  const dsl::Program p = oneChunkReduceScatter(t);
  std::map<std::pair<int32_t, int32_t>, std::vector<int32_t>> rootBoxes;  // (sender, box mate) -> in trace order
  for (const dsl::TraceOp& op : p.trace()) {
    if (op.local() || op.dst.buffer != ir::Buffer::Scratch || boxOf(op.src.rank) != boxOf(op.dst.rank)) continue;
    if (boxOf(op.src.index) == boxOf(op.src.rank)) continue;  // a root of its own box: no NIC after it
    rootBoxes[{op.src.rank, op.dst.rank}].push_back(boxOf(op.src.index));
  }
  REQUIRE(rootBoxes.size() == 32 * 7);
  for (const auto& [pair, boxes] : rootBoxes) {
    INFO("sender " << pair.first << ", receiver " << pair.second);
    const int32_t b = boxOf(pair.first);
    CHECK(boxes == std::vector<int32_t>{(b + 1) % 4, (b + 2) % 4, (b + 3) % 4});
  }
}

TEST_CASE("trees: a root sums what came over the network in its first slots") {
  // Pairwise sums give the first slots the longest path to the end; the compiler orders each
  // thread block's sends by that length, so a rail peer's sum in a short tail slot would put
  // every contribution feeding it behind all others (the allreduce above: 89.5% instead of 95%).
  const topo::Topology t = topo::loadTopology("a100-4");
  const dsl::Program p = oneChunkReduceScatter(t);
  const std::vector<dsl::TraceOp>& trace = p.trace();
  std::map<std::pair<int32_t, int32_t>, int32_t> senderOf;  // (rank, scratch index) -> sender
  int32_t roots = 0;
  for (size_t i = 0; i + 1 < trace.size(); ++i) {
    const dsl::TraceOp& op = trace[i];
    if (!op.local() && op.dst.buffer == ir::Buffer::Scratch) senderOf[{op.dst.rank, op.dst.index}] = op.src.rank;
    // A root copies its own piece into its output, then sums its slots pairwise into it.
    if (!op.local() || op.kind != dsl::TraceOpKind::Copy || op.dst.buffer != ir::Buffer::Output) continue;
    const dsl::TraceOp& first = trace[i + 1];
    const int32_t root = op.dst.rank;
    INFO("root " << root);
    REQUIRE(first.kind == dsl::TraceOpKind::Reduce);
    REQUIRE(first.dst.buffer == ir::Buffer::Scratch);
    CHECK(boxOf(senderOf.at({root, first.dst.index})) != boxOf(root));
    CHECK(boxOf(senderOf.at({root, first.src.index})) != boxOf(root));
    ++roots;
  }
  CHECK(roots == 32);
}
