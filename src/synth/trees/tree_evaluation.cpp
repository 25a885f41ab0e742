#include "synth/trees/tree_evaluation.hpp"

#include <algorithm>

#include "driver/compile_and_verify.hpp"
#include "sim/simulate.hpp"

namespace ccforge::synth::trees {

std::vector<uint64_t> comparisonSizes(uint64_t largest) {
  std::vector<uint64_t> sizes;
  for (uint64_t b = uint64_t{1} << 10; b <= largest; b *= 4) sizes.push_back(b);
  return sizes;
}

TreeEvaluation evaluateProgram(const ir::Algorithm& algorithm, const std::string& source,
                               const topo::Topology& topology, semantics::CollectiveType collective, bool withCostCurve,
                               uint64_t bytes, uint64_t curveUpTo) {
  TreeEvaluation out;
  out.bytes = bytes;
  out.report = driver::verifyCompiled(algorithm, std::string(collectiveTypeName(collective)), driver::Target{}, source);
  const std::vector<uint64_t> sizes =
      withCostCurve ? comparisonSizes(std::max(bytes, curveUpTo)) : std::vector<uint64_t>{bytes};
  const sim::SimulationReport simulated = sim::simulate(
      algorithm, source, topology,
      {.sizes = sizes, .arch = std::nullopt, .eventLimit = sim::kDefaultEventLimit, .specLinkRates = true});
  std::vector<std::pair<double, double>> samples;
  for (const sim::SizeResult& r : simulated.results) {
    samples.emplace_back(static_cast<double>(r.bytes), r.timeUs);
    if (r.bytes != bytes) continue;
    out.simulatedAlgbwGBps = r.algbwGBps;
    out.simulatedTimeUs = r.timeUs;
  }
  if (withCostCurve) out.simulatedCost = deploy::CostCurve(std::move(samples));
  return out;
}

}  // namespace ccforge::synth::trees
