#include "synth/trees/tree_evaluation.hpp"

#include "sim/simulate.hpp"
#include "verify/verifier.hpp"

namespace ccforge::synth::trees {

TreeEvaluation evaluateProgram(const ir::Algorithm& algorithm, const std::string& source, const topo::Topology& topology,
                               CollectiveType collective, uint64_t bytes) {
  TreeEvaluation out;
  verify::Options options;
  options.collective = std::string(collectiveTypeName(collective));
  out.report = verify::verifyAlgorithm(algorithm, source, options);
  const sim::SimulationReport simulated = sim::simulate(algorithm, source, topology, {.sizes = {bytes}});
  out.simulatedAlgbwGBps = simulated.results.at(0).algbwGBps;
  out.simulatedTimeUs = simulated.results.at(0).timeUs;
  return out;
}

}  // namespace ccforge::synth::trees
