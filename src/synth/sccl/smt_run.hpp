// An SMT-synthesis run, what `ccforge synth` does on a single box (docs/synth.md): the search the
// request names over SCCL's (C,S,R) instances, power-of-two substitutes for free searches, and the
// frontier lowered through the DSL compiler, verified, and written to a directory when one is given
// (frontier_files.hpp).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "synth/sccl/cost.hpp"
#include "synth/sccl/frontier_files.hpp"
#include "synth/sccl/search.hpp"

namespace ccforge::synth::sccl {

enum class SearchMode : uint8_t {
  Pareto,            // steps against rounds per chunk (the default)
  LeastSteps,        // the fewest steps, then the fewest rounds there
  BandwidthOptimal,  // rounds per chunk at the bound, fewest steps
  Instance,          // the one instance (chunks, steps, rounds)
};

struct SmtRunOptions {
  SynthOptions synthesizer;  // solver, time limits, progress on each instance
  SearchMode mode = SearchMode::Pareto;
  int32_t chunks = 0, steps = 0, rounds = 0;  // SearchMode::Instance
  SearchLimits limits;
  FrontierFilesOptions files;                          // the protocol, where and under which names, the NCCL gate
  std::function<void(const std::string&)> phase = {};  // progress: a phase begun
};

struct SmtRun {
  semantics::CollectiveType collective = semantics::CollectiveType::AllGather;
  int32_t ranks = 0;
  synth::CollectiveBound bound;
  std::vector<InstanceResult> history;  // every instance decided, in order
  SearchResult result;
  CostModel cost;
  std::vector<FrontierPoint> points;  // the frontier, once per call form
};

// Throws what Synthesizer and the searches throw for a request they refuse (std::invalid_argument,
// InputError), and std::invalid_argument when a file cannot be written.
SmtRun runSmtSynthesis(const topo::Topology& topology, semantics::CollectiveType collective, int32_t root,
                       const SmtRunOptions& options);

}  // namespace ccforge::synth::sccl
