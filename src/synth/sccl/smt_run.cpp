#include "synth/sccl/smt_run.hpp"

#include <fmt/format.h>

namespace ccforge::synth::sccl {
namespace {

SearchResult search(Synthesizer& synth, const SmtRunOptions& o) {
  switch (o.mode) {
    case SearchMode::Pareto: return paretoSearch(synth, o.limits);
    case SearchMode::LeastSteps: return leastStepsSearch(synth, o.limits);
    case SearchMode::BandwidthOptimal: return bandwidthOptimalSearch(synth, o.limits);
    case SearchMode::Instance: break;
  }
  SearchResult out;
  const InstanceResult r = synth.solve(o.chunks, o.steps, o.rounds);
  if (r.verdict == Verdict::Sat) out.frontier.push_back(r);
  if (r.verdict == Verdict::Unknown) {
    out.complete = false;
    out.note = r.note;
  }
  return out;
}

}  // namespace

SmtRun runSmtSynthesis(const topo::Topology& topology, semantics::CollectiveType collective, int32_t root,
                       const SmtRunOptions& options) {
  auto phase = [&](const std::string& p) {
    if (options.phase) options.phase(p);
  };
  phase("computing the lower bounds on " + topology.name);
  Synthesizer synth(topology, collective, root, options.synthesizer);
  SmtRun run;
  run.result = search(synth, options);
  if (options.mode != SearchMode::Instance) {
    phase("looking for power-of-two substitutes");
    addPowerOfTwoSubstitutes(synth, run.result, options.limits);
  }
  phase(fmt::format("compiling and verifying {} frontier program{}", run.result.frontier.size(),
                    run.result.frontier.size() == 1 ? "" : "s"));
  run.cost = costModel(topology, collective);
  run.points = frontierFiles(synth, run.result.frontier, run.cost, options.files);
  run.collective = collective;
  run.ranks = synth.ranks();
  run.bound = synth.bound();
  run.history = synth.history();
  return run;
}

}  // namespace ccforge::synth::sccl
