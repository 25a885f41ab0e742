#include "synth/trees/tree_evaluation.hpp"

#include "driver/compile_and_verify.hpp"
#include "sim/simulate.hpp"

namespace ccforge::synth::trees {

TreeEvaluation evaluateProgram(const ir::Algorithm& algorithm, const std::string& source, const topo::Topology& topology,
                               CollectiveType collective, uint64_t bytes) {
  TreeEvaluation out;
  out.report = driver::verifyCompiled(algorithm, std::string(collectiveTypeName(collective)), driver::Target{}, source);
  const sim::SimulationReport simulated = sim::simulate(algorithm, source, topology, {.sizes = {bytes}});
  out.simulatedAlgbwGBps = simulated.results.at(0).algbwGBps;
  out.simulatedTimeUs = simulated.results.at(0).timeUs;
  return out;
}

}  // namespace ccforge::synth::trees
