// Verifies, simulates and bounds an MSCCL-IR broadcast in-process with ccforge's installed
// libraries: consumer PROGRAM.xml TOPOLOGY. Prints one line per step and exits 0 when the
// program verifies, simulates and stays within the bound.
#include <ccforge/base/input_error.hpp>
#include <ccforge/ir/reader.hpp>
#include <ccforge/sim/simulate.hpp>
#include <ccforge/synth/bounds/bounds.hpp>
#include <ccforge/topology/spec_reader.hpp>
#include <ccforge/verify/report_writers.hpp>
#include <ccforge/verify/verifier.hpp>

#include <iostream>

using namespace ccforge;

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: consumer PROGRAM.xml TOPOLOGY\n";
    return 1;
  }
  try {
    verify::Options options;
    options.profileFromHeader = true;
    const verify::FileReport report = verify::verifyFile(argv[1], options);
    verify::writeText(std::cout, {report}, verify::RunInfo{report.profile, 0});
    if (report.verdict != verify::Verdict::Verified) return 10;

    const ir::Algorithm algorithm = ir::readAlgorithmFile(argv[1]).algorithm;
    const topo::Topology topology = topo::loadTopology(argv[2]);
    sim::SimulationOptions simulation;
    simulation.sizes = {1 << 20};
    const sim::SimulationReport simulated = sim::simulate(algorithm, argv[1], topology, simulation);
    const double algbw = simulated.results.at(0).algbwGBps;
    std::cout << "simulated: 1 MiB in " << simulated.results.at(0).timeUs << " us, algbw " << algbw << " GB/s\n";

    const synth::CollectiveBound bound = synth::collectiveBound(topology, semantics::CollectiveType::Broadcast, 0);
    const double limit = topo::toDouble(bound.algbwUpperBoundGBps);
    std::cout << "bound: algbw at most " << limit << " GB/s (" << bound.method << "), at least "
              << bound.stepsLowerBound << " steps\n";
    if (algbw > limit * (1 + 1e-9)) {
      std::cout << "the simulation beats the bound\n";
      return 6;
    }
    std::cout << "consumer: verified, simulated and within the bound\n";
  } catch (const base::InputError& e) {
    std::cerr << e.diagnostic() << "\n";
    return 2;
  }
  return 0;
}
