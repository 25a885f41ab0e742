#include <cstdio>
#include <cstdlib>
#include "synth/trees/tree_synthesis.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>
#include <vector>

#include "synth/bounds/bounds.hpp"
#include "synth/bounds/cut_bounds.hpp"
#include "synth/trees/arborescence_packing.hpp"
#include "synth/trees/switch_removal.hpp"
#include "codegen/compile_error.hpp"
#include "synth/trees/tree_programs.hpp"

namespace ccforge::synth::trees {
namespace {

using topo::Rational;

struct Packed {
  Packing packing;
  Rational fraction;  // of the cut rate
  int64_t maxFlows = 0;
};

constexpr int32_t kMostChannels = 8;

Packed pack(const topo::Topology& t, bool reversed, const TreeSynthesisOptions& options, const Deadline& deadline) {
  LogicalGraph logical = removeSwitches(t, reversed, allGatherRate(t, reversed), options.maxTreesPerRoot, deadline);
  Packing packing = packArborescences(logical.graph, logical.treesPerRoot, deadline);
  const int64_t flows = logical.maxFlows + packing.maxFlows;
  return {std::move(packing), logical.rateFraction, flows};
}

int64_t distinct(const Packing& p) { return static_cast<int64_t>(p.trees.size()); }

}  // namespace

TreeSynthesis synthesizeTrees(const topo::Topology& topology, CollectiveType collective,
                              const TreeSynthesisOptions& options) {
  if (collective != CollectiveType::AllGather && collective != CollectiveType::ReduceScatter &&
      collective != CollectiveType::AllReduce)
    throw std::invalid_argument("tree packing synthesizes allgather, reducescatter and allreduce, not " +
                                std::string(collectiveTypeName(collective)));
  const Deadline deadline(options.timeoutSeconds);
  const Rational agBound = collectiveBound(topology, CollectiveType::AllGather).algbwUpperBoundGBps;
  const Rational rsBound = collectiveBound(topology, CollectiveType::ReduceScatter).algbwUpperBoundGBps;
  const std::string name = "trees-" + std::string(collectiveTypeName(collective)) + "-" + topology.name;

  TreeSynthesis out;
  out.collective = collective;
  out.ranks = static_cast<int32_t>(topology.gpus().size());
  std::vector<Packed> packed;
  if (collective != CollectiveType::AllGather) packed.push_back(pack(topology, true, options, deadline));
  if (collective != CollectiveType::ReduceScatter) packed.push_back(pack(topology, false, options, deadline));
  for (const Packed& p : packed) {
    if (std::getenv("TREES_DEBUG")) {
      for (const Arborescence& t : p.packing.trees) {
        std::fprintf(stderr, "root %d m %ld:", t.root, (long)t.multiplicity);
        for (auto [u, w] : t.edges) std::fprintf(stderr, " %d>%d", u, w);
        std::fprintf(stderr, "\n");
      }
    }
    out.distinctTrees += distinct(p.packing);
    out.maxFlows += p.maxFlows;
    out.depth += depth(p.packing);
    const std::vector<int64_t> loads = edgeLoads(p.packing);
    out.busiestPairPieces = std::max(out.busiestPairPieces, *std::max_element(loads.begin(), loads.end()));
  }

  // The most channels (from 8 down) whose schedule fits the target: the compiler decides.
  auto lower = [&](int32_t channels) {
    const Lowering how{.channels = channels, .rounds = options.rounds, .protocol = options.protocol};
    switch (collective) {
      case CollectiveType::AllGather:
        out.boundAlgbwGBps = agBound;
        out.packedAlgbwGBps = agBound * packed[0].fraction;
        return allGatherProgram(name, packed[0].packing, how);
      case CollectiveType::ReduceScatter:
        out.boundAlgbwGBps = rsBound;
        out.packedAlgbwGBps = rsBound * packed[0].fraction;
        return reduceScatterProgram(name, packed[0].packing, how);
      default: {
        // Time of M bytes is M/rs + M/ag, so algbw is the harmonic combination.
        auto serial = [](const Rational& a, const Rational& b) { return a * b / (a + b); };
        out.boundAlgbwGBps = serial(rsBound, agBound);
        out.packedAlgbwGBps = serial(rsBound * packed[0].fraction, agBound * packed[1].fraction);
        return allReduceProgram(name, packed[0].packing, packed[1].packing, how);
      }
    }
  };
  for (int32_t channels = std::getenv("TREES_CH") ? std::atoi(std::getenv("TREES_CH")) : kMostChannels;; --channels) {
    deadline.check("lowering");
    dsl::Program program = lower(channels);
    try {
      out.compiled = codegen::compile(program, {.target = options.target});
    } catch (const codegen::CompileError&) {
      if (channels == 1) throw;
      continue;
    }
    out.channels = channels;
    out.piecesPerRoot = program.binding().chunkFactor / (collective == CollectiveType::AllReduce ? out.ranks : 1) / options.rounds;
    return out;
  }
}

}  // namespace ccforge::synth::trees
