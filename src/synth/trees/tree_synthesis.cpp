#include "synth/trees/tree_synthesis.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <numeric>
#include <stdexcept>
#include <unordered_map>
#include <utility>
#include <vector>

#include "codegen/compile_error.hpp"
#include "base/limits.hpp"
#include "semantics/protocol.hpp"
#include "sim/simulate.hpp"
#include "synth/bounds/bounds.hpp"
#include "synth/bounds/cut_bounds.hpp"
#include "synth/trees/arborescence_packing.hpp"
#include "synth/trees/box_rings.hpp"
#include "synth/trees/hierarchical.hpp"
#include "synth/trees/rail_alltoall.hpp"
#include "synth/trees/ring_programs.hpp"
#include "synth/trees/routed_rate.hpp"
#include "synth/trees/switch_removal.hpp"
#include "synth/trees/tree_programs.hpp"

namespace ccforge::synth::trees {
namespace {

using topo::Rational;

struct Phase {
  Packing trees;
  bool reversed = false;  // in-trees (reducescatter)
  int64_t maxFlows = 0;
};

Phase packedPhase(const topo::Topology& t, bool reversed, const TreeSynthesisOptions& options,
                  const Deadline& deadline) {
  LogicalGraph logical = removeSwitches(t, reversed, allGatherRate(t, reversed), options.maxTreesPerRoot, deadline);
  Packing packing = packArborescences(logical.graph, logical.treesPerRoot, deadline);
  const int64_t flows = logical.maxFlows + packing.maxFlows;
  return {std::move(packing), reversed, flows};
}

double simulatedAlgbw(const ir::Algorithm& algorithm, const topo::Topology& t, uint64_t bytes) {
  return sim::simulate(
             algorithm, algorithm.name + ".xml", t,
             {.sizes = {bytes}, .arch = std::nullopt, .eventLimit = sim::kDefaultEventLimit, .specLinkRates = true})
      .results.at(0)
      .algbwGBps;
}

// The most tree transfers one thread block carries per round: every tree crossing an ordered GPU
// pair adds one step to that pair's blocks on its channel group (tree_programs.hpp), in every
// phase (allreduce's two phases share the connections).
int64_t busiestBlockSteps(const std::vector<Phase>& phases, int32_t groups) {
  std::unordered_map<int64_t, int64_t> crossing;  // (group, from, to) -> trees
  int64_t most = 0;
  for (const Phase& p : phases) {
    const int64_t n = p.trees.vertices;
    for (const Arborescence& t : p.trees.trees) {
      const int64_t group = channelGroupOf(t.root, groups, p.trees.vertices);
      for (auto [u, w] : t.edges) most = std::max(most, ++crossing[(group * n + u) * n + w]);
    }
  }
  return most;
}

// Time of M bytes is M/a + M/b for two phases run one after the other.
Rational serial(const Rational& a, const Rational& b) { return a * b / (a + b); }

// Rings (box_rings.hpp): every split of the runtime's channels between the passes' lanes is
// lowered and simulated; the fastest is kept. With second entries (several boxes) the lanes
// fill the channels, a cycle's two directions sharing them, the other boxes' passes getting
// what the own pass does not: 4 + 5 on mi250-2, the fastest of the fillings at 8 and 16 GiB
// (docs/benchmarks.md; a search would simulate each at sizes that take a minute).
TreeSynthesis synthesizeRings(const topo::Topology& topology, semantics::CollectiveType collective,
                              const TreeSynthesisOptions& options, const Deadline& deadline, const std::string& name,
                              const Rational& bound, bool secondEntries) {
  if (collective != semantics::CollectiveType::AllGather)
    throw std::invalid_argument("the ring composition synthesizes allgather, not " +
                                std::string(collectiveTypeName(collective)));
  const std::optional<BoxRings> rings = findBoxRings(topology, deadline);
  if (!rings)
    throw std::invalid_argument(
        "the ring composition needs boxes whose GPUs are joined by direct links into rings "
        "(no switch), alike in every box, with rails between boxes");
  TreeSynthesis out;
  out.collective = collective;
  out.ranks = rings->ranks();
  out.boundAlgbwGBps = bound;
  std::string lastError = "no lane count fits the runtime's channels";
  RingLowering best;
  auto tryLowering = [&](const RingLowering& how) {
    deadline.check("lowering");
    dsl::Program program = ringAllGatherProgram(name, *rings, how);
    codegen::Compiled compiled;
    double simulated = 0;
    try {
      compiled = codegen::compile(program, {.target = options.target});
      simulated = simulatedAlgbw(compiled.algorithm, topology, options.simulatedBytes);
    } catch (const codegen::CompileError& e) {
      lastError = e.what();
      return;
    } catch (const sim::SimulationViolation& e) {
      lastError = e.what();  // the verifier would reject it as well: not a candidate
      return;
    }
    if (simulated <= out.simulatedAlgbwGBps) return;
    best = how;
    const Packing trees = ringPacking(*rings, how);
    const std::vector<int64_t> loads = edgeLoads(trees);
    out.simulatedAlgbwGBps = simulated;
    out.compiled = std::move(compiled);
    out.channels = ringChannels(*rings, how);
    out.rounds = 1;
    out.piecesPerRoot = static_cast<int32_t>(trees.treesPerRoot);
    out.distinctTrees = static_cast<int64_t>(trees.trees.size());
    out.depth = depth(trees);
    out.busiestPairPieces = *std::max_element(loads.begin(), loads.end());
    out.packedAlgbwGBps = routedRate(topology, trees, false) * out.ranks;
  };
  const auto boxes = static_cast<int32_t>(rings->boxes.size());
  if (secondEntries) {
    if (boxes < 2) throw std::invalid_argument("second entries need several boxes");
    const RingLowering fill{.secondEntries = true, .directionsShareChannels = true};
    // Lane slots per ring within the channels: the own pass's, and per other box its lanes plus one.
    const int32_t slots = semantics::kMaxChannels / channelsPerLane(*rings, fill);
    const int32_t own = (slots - (boxes - 1)) / boxes;
    const int32_t other = (slots - (boxes - 1) - own) / (boxes - 1);
    if (own >= 1 && other >= 1) {
      RingLowering how = fill;
      how.ownLanes = own;
      how.otherLanes = other;
      how.protocol = options.protocol;
      tryLowering(how);
    }
  } else {
    // Every split of the channels between the passes' lanes (more lanes for a pass is not always
    // faster: mi250-2 simulates 2 + 2 lanes faster than 2 + 3).
    for (int32_t own = 1; ringChannels(*rings, {.ownLanes = own, .otherLanes = 1}) <= semantics::kMaxChannels; ++own)
      for (int32_t other = 1; other <= (boxes > 1 ? semantics::kMaxChannels : 1); ++other) {
        const RingLowering how{.ownLanes = own, .otherLanes = other, .protocol = options.protocol};
        if (ringChannels(*rings, how) > semantics::kMaxChannels) break;
        tryLowering(how);
      }
  }
  if (out.channels == 0) throw codegen::CompileError(lastError);
  best.form = semantics::CallForm::InPlace;
  out.inPlace = codegen::compile(ringAllGatherProgram(name + "-inplace", *rings, best), {.target = options.target});
  return out;
}

// The two-step alltoall (rail_alltoall.hpp) with the fewest rail channels the target holds: a
// thread block for each direction of a rail pair where the target's thread blocks allow (up to 47
// boxes of 8 GPUs on the executor's 108), else one for both. The choice needs no simulation: the
// simulator gives the first 99.8-99.9% of the bound on 2 to 32 H100 boxes, and the rail channels
// only spread the connections over the channels' thread blocks.
TreeSynthesis synthesizeTwoStep(const topo::Topology& topology, const TreeSynthesisOptions& options,
                                const Deadline& deadline, const std::string& name) {
  const std::vector<std::vector<int32_t>> boxes = gpusByBox(topology);
  TreeSynthesis out;
  out.collective = semantics::CollectiveType::AllToAll;
  out.ranks = static_cast<int32_t>(topology.gpus().size());
  out.boundAlgbwGBps = collectiveBound(topology, semantics::CollectiveType::AllToAll).algbwUpperBoundGBps;
  std::string lastError;
  for (bool eachWay : {true, false})
    for (int32_t railChannels = 1; railChannels < semantics::kMaxChannels; ++railChannels) {
      deadline.check("lowering");
      if (options.progress)
        options.progress(fmt::format("lowering the two-step alltoall on {} rail channel{}, a thread block {}",
                                     railChannels, railChannels == 1 ? "" : "s",
                                     eachWay ? "each way" : "for both ways"));
      try {
        out.compiled = codegen::compile(
            railAllToAllProgram(
                name, boxes, {.railChannels = railChannels, .railBlockEachWay = eachWay, .protocol = options.protocol}),
            {.target = options.target});
        out.channels = 1 + railChannels;
        out.piecesPerRoot = 1;
        out.rounds = 1;
        out.depth = 2;
        out.busiestPairPieces = static_cast<int64_t>(boxes.front().size());  // per rail pair and direction
        return out;
      } catch (const codegen::CompileError& e) {
        lastError = e.what();
      }
    }
  throw codegen::CompileError(lastError);
}

// What lowering a set of phases needs besides the phases.
struct LoweringRequest {
  const topo::Topology& topology;
  semantics::CollectiveType collective;
  const TreeSynthesisOptions& options;
  const Deadline& deadline;
  const std::string& name;
  const Rational& agBound;
  const Rational& rsBound;
};

// The phases' figures, and per channel group count, pipeline depth and channels the lowering
// the simulator finds fastest among those that fit the target; codegen::CompileError when none fits.
TreeSynthesis lowerPhases(const LoweringRequest& request, const std::vector<Phase>& phases);

}  // namespace

std::string_view compositionName(Composition c) {
  switch (c) {
    case Composition::Packing: return "trees";
    case Composition::Hierarchical: return "hierarchical";
    case Composition::Rings: return "rings";
    case Composition::RingsSplit: return "rings-split";
    case Composition::TwoStep: return "two-step";
  }
  return "trees";
}

TreeSynthesis synthesizeTrees(const topo::Topology& topology, semantics::CollectiveType collective,
                              const TreeSynthesisOptions& options) {
  if (options.composition == Composition::TwoStep && collective != semantics::CollectiveType::AllToAll)
    throw std::invalid_argument("the two-step composition synthesizes alltoall, not " +
                                std::string(collectiveTypeName(collective)));
  if (collective == semantics::CollectiveType::AllToAll && options.composition != Composition::TwoStep)
    throw std::invalid_argument("the tree method synthesizes alltoall with the two-step composition only");
  if (collective != semantics::CollectiveType::AllGather && collective != semantics::CollectiveType::ReduceScatter &&
      collective != semantics::CollectiveType::AllReduce && collective != semantics::CollectiveType::AllToAll)
    throw std::invalid_argument("the tree method synthesizes allgather, reducescatter, allreduce and alltoall, not " +
                                std::string(collectiveTypeName(collective)));
  if (options.composition == Composition::Packing &&
      topology.gpus().size() > static_cast<size_t>(base::limits::kMaxTreePackingGpus))
    throw base::LimitExceeded("topology " + topology.name + " has " + std::to_string(topology.gpus().size()) +
                              " GPUs; the tree packing synthesizes for at most " +
                              std::to_string(base::limits::kMaxTreePackingGpus) +
                              " (ccforge's limit, docs/limits.md); --composition hierarchical serves machines of "
                              "identical boxes up to " +
                              std::to_string(base::limits::kMaxTreeSynthGpus));
  const Deadline own(options.timeoutSeconds);
  const Deadline& deadline = options.deadline ? *options.deadline : own;
  const std::string name = std::string(compositionName(options.composition)) + "-" +
                           std::string(collectiveTypeName(collective)) + "-" + topology.name;
  if (options.composition == Composition::TwoStep) return synthesizeTwoStep(topology, options, deadline, name);
  const Rational agBound = collectiveBound(topology, semantics::CollectiveType::AllGather).algbwUpperBoundGBps;
  const Rational rsBound = collectiveBound(topology, semantics::CollectiveType::ReduceScatter).algbwUpperBoundGBps;
  if (options.composition == Composition::Rings || options.composition == Composition::RingsSplit)
    return synthesizeRings(topology, collective, options, deadline, name, agBound,
                           options.composition == Composition::RingsSplit);

  // The phases' trees: packed, or the hierarchical composition's for each rail shape worth
  // lowering, the fastest kept.
  auto phasesOf = [&](auto makeTrees) {
    std::vector<Phase> phases;
    if (collective != semantics::CollectiveType::AllGather) phases.push_back(makeTrees(true));
    if (collective != semantics::CollectiveType::ReduceScatter) phases.push_back(makeTrees(false));
    return phases;
  };
  const LoweringRequest request{topology, collective, options, deadline, name, agBound, rsBound};
  if (options.composition != Composition::Hierarchical)
    return lowerPhases(request,
                       phasesOf([&](bool reversed) { return packedPhase(topology, reversed, options, deadline); }));
  std::optional<TreeSynthesis> best;
  std::string lastError;
  for (RailShape shape : railShapes(topology, options.target.maxPeersPerChannel)) {
    try {
      TreeSynthesis s = lowerPhases(request, phasesOf([&](bool reversed) {
                                      return Phase{hierarchicalTrees(topology, shape), reversed, 0};
                                    }));
      if (!best || s.simulatedAlgbwGBps > best->simulatedAlgbwGBps) best = std::move(s);
    } catch (const codegen::CompileError& e) {
      lastError = e.what();
    }
  }
  if (!best) throw codegen::CompileError(lastError);
  return std::move(*best);
}

namespace {

TreeSynthesis lowerPhases(const LoweringRequest& request, const std::vector<Phase>& phases) {
  // Named references, not a structured binding: the lambdas below capture them, which clang 14
  // (clang-tidy) does not accept for bindings.
  const topo::Topology& topology = request.topology;
  const semantics::CollectiveType collective = request.collective;
  const TreeSynthesisOptions& options = request.options;
  const Deadline& deadline = request.deadline;
  const std::string& name = request.name;
  const Rational& agBound = request.agBound;
  const Rational& rsBound = request.rsBound;
  TreeSynthesis out;
  out.collective = collective;
  out.ranks = static_cast<int32_t>(topology.gpus().size());
  std::vector<Rational> algbw;  // per phase, routed on the topology
  for (const Phase& p : phases) {
    out.distinctTrees += static_cast<int64_t>(p.trees.trees.size());
    out.maxFlows += p.maxFlows;
    out.depth += depth(p.trees);
    const std::vector<int64_t> loads = edgeLoads(p.trees);
    out.busiestPairPieces = std::max(out.busiestPairPieces, *std::max_element(loads.begin(), loads.end()));
    algbw.push_back(routedRate(topology, p.trees, p.reversed) * out.ranks);
  }
  switch (collective) {
    case semantics::CollectiveType::AllGather:
      out.boundAlgbwGBps = agBound;
      out.packedAlgbwGBps = algbw[0];
      break;
    case semantics::CollectiveType::ReduceScatter:
      out.boundAlgbwGBps = rsBound;
      out.packedAlgbwGBps = algbw[0];
      break;
    default: out.boundAlgbwGBps = serial(rsBound, agBound); out.packedAlgbwGBps = serial(algbw[0], algbw[1]);
  }

  auto lower = [&](const Lowering& how) {
    switch (collective) {
      case semantics::CollectiveType::AllGather: return allGatherProgram(name, phases[0].trees, how);
      case semantics::CollectiveType::ReduceScatter: return reduceScatterProgram(name, phases[0].trees, how);
      default: return allReduceProgram(name, phases[0].trees, phases[1].trees, how);
    }
  };
  // A root's share is cut into trees per root x channels x rounds pieces, and the runtime selects a file only for sizes
  // its chunk count divides, all powers of two (deploy/deployment.hpp): when the trees per root
  // are a power of two, only power-of-two channel counts are tried, so that the file deploys.
  int64_t treesPerRoot = 1;
  for (const Phase& p : phases) treesPerRoot = std::lcm(treesPerRoot, p.trees.treesPerRoot);
  const bool deployableCuts = std::has_single_bit(static_cast<uint64_t>(treesPerRoot));
  std::string lastError;
  // Per channel group count and pipeline depth, the most channels whose schedule fits the
  // target's limits (the compiler decides); among those, the one the simulator finds fastest. Trees are dealt to more
  // channel groups only when no lowering fits with fewer, and one round (no pipelining) is tried only when no deeper
  // pipeline fits. (Trying every group count with pipelining first was slower on 64 H100 boxes: 88.9% of the bound with
  // 2 groups x 2 rounds against 91.1% with one group and one round.)
  auto tryLowering = [&](int32_t groups, int32_t rounds) {
    const int64_t steps = busiestBlockSteps(phases, groups) * rounds;
    if (steps > options.target.maxStepsPerThreadBlock) {
      lastError = fmt::format(
          "{} trees per channel group cross one GPU pair: {} steps per thread block at {} rounds, {} allowed",
          steps / rounds, steps, rounds, options.target.maxStepsPerThreadBlock);
      return false;
    }
    bool fits = false;
    const int32_t most = std::min(options.maxChannels, options.target.maxChannels / groups);
    for (int32_t channels = most; channels >= 1 && !fits; --channels) {
      if (deployableCuts && !std::has_single_bit(static_cast<uint32_t>(channels))) continue;
      deadline.check("lowering");
      if (options.progress)
        options.progress(fmt::format("lowering {} channel group{} x {} channel{} x {} round{}", groups,
                                     groups == 1 ? "" : "s", channels, channels == 1 ? "" : "s", rounds,
                                     rounds == 1 ? "" : "s"));
      std::optional<dsl::Program> program;
      codegen::Compiled compiled;
      try {
        // A lowering cut into more chunks than ccforge's program limit is one that does not fit.
        program.emplace(lower({.channels = channels,
                               .channelGroups = groups,
                               .rounds = rounds,
                               .maxSteps = options.target.maxStepsPerThreadBlock,
                               .protocol = options.protocol}));
        compiled = codegen::compile(*program, {.target = options.target});
      } catch (const base::LimitExceeded& e) {
        lastError = e.what();
        continue;
      } catch (const codegen::CompileError& e) {
        lastError = e.what();
        continue;
      }
      const double simulated = simulatedAlgbw(compiled.algorithm, topology, options.simulatedBytes);
      if (simulated > out.simulatedAlgbwGBps) {
        out.simulatedAlgbwGBps = simulated;
        out.compiled = std::move(compiled);
        out.channels = channels * groups;
        out.rounds = rounds;
        out.piecesPerRoot =
            program->binding().chunkFactor / (collective == semantics::CollectiveType::AllReduce ? out.ranks : 1);
      }
      fits = true;
    }
    return fits;
  };
  for (int32_t groups = 1; groups <= options.target.maxChannels && out.channels == 0; groups *= 2) {
    // More rounds only add steps per thread block: if these did not fit, those will not.
    for (int32_t rounds : options.rounds)
      if (!tryLowering(groups, rounds)) break;
    if (out.channels == 0) tryLowering(groups, 1);
  }
  if (out.channels == 0) throw codegen::CompileError(lastError);
  return out;
}

}  // namespace

}  // namespace ccforge::synth::trees
