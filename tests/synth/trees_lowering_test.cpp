// Lowering of reductions along trees (src/synth/trees/tree_programs.cpp): the sums run on
// thread blocks of their own, so that the network sends they feed are not held up.
#include <catch2/catch.hpp>

#include <cstdint>

#include "semantics/topology/spec_reader.hpp"
#include "synth/trees/tree_synthesis.hpp"

using namespace ccforge;
using namespace ccforge::synth::trees;

TEST_CASE("trees: 4 x 8 A100 hierarchical reducescatter reduces off the connections, above 85% of the bound") {
  // topologies.md: 266.67 GB/s (the NICs). Summed on the receiving thread blocks, the reductions
  // held up the network sends: 81.6% (docs/benchmarks.md before the reduction blocks).
  const topo::Topology t = topo::loadTopology("a100-4");
  const TreeSynthesis s = synthesizeTrees(t, CollectiveType::ReduceScatter, {.composition = Composition::Hierarchical});
  CHECK(s.simulatedAlgbwGBps >= 0.85 * 800 / 3);
  int64_t onConnections = 0;  // reductions on a thread block that sends or receives
  for (const ir::Gpu& gpu : s.compiled.algorithm.gpus)
    for (const ir::ThreadBlock& tb : gpu.threadBlocks)
      for (const ir::Step& step : tb.steps)
        if (step.type == ir::OpType::Reduce && (tb.send >= 0 || tb.recv >= 0)) ++onConnections;
  CHECK(onConnections == 0);
}
