#include "synth/trees/tree_run.hpp"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "codegen/compile_error.hpp"
#include "ir/writer.hpp"

namespace ccforge::synth::trees {
namespace {

std::string writeFile(const std::string& dir, const ir::Algorithm& algorithm) {
  std::filesystem::create_directories(dir);
  const std::string path = (std::filesystem::path(dir) / (algorithm.name + ".xml")).string();
  std::ofstream out(path);
  out << ir::toXml(algorithm);
  out.flush();
  if (!out) throw std::runtime_error("cannot write " + path);
  return path;
}

}  // namespace

std::vector<Composition> compositionsOf(const TreeRunOptions& options, const topo::Topology& topology) {
  if (options.composition) return {*options.composition};
  if (topology.boxCount() > 1) return {Composition::Packing, Composition::Hierarchical};
  return {Composition::Packing};
}

double TreeOutcome::fractionOfBound() const {
  return evaluation.simulatedAlgbwGBps / topo::toDouble(synthesis.boundAlgbwGBps);
}

TreeRun runTreeSynthesis(const topo::Topology& topology, CollectiveType collective, const TreeRunOptions& options) {
  TreeRun run;
  for (Composition composition : compositionsOf(options, topology)) {
    const auto start = std::chrono::steady_clock::now();
    TreeOutcome o;
    o.composition = composition;
    try {
      o.synthesis = synthesizeTrees(
          topology, collective,
          {.composition = composition, .protocol = options.protocol, .timeoutSeconds = options.timeoutSeconds});
    } catch (const codegen::CompileError& e) {
      run.failures.push_back({composition, TreeFailure::Kind::NoSchedule, e.what()});
      continue;
    } catch (const SynthesisLimit& e) {
      run.failures.push_back({composition, TreeFailure::Kind::TimeLimit, e.what()});
      continue;
    }
    const ir::Algorithm& algorithm = o.synthesis.compiled.algorithm;
    if (!options.outputDirectory.empty()) o.file = writeFile(options.outputDirectory, algorithm);
    o.evaluation = evaluateProgram(algorithm, o.file.empty() ? algorithm.name + ".xml" : o.file, topology, collective);
    o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    run.outcomes.push_back(std::move(o));
  }
  return run;
}

}  // namespace ccforge::synth::trees
