// `ccforge synth --method trees`: spanning-tree packing after switch removal for allgather,
// reducescatter and allreduce (docs/synth-trees.md). Every emitted file is verified and
// simulated on the topology at 1 GiB; the report compares the simulated algbw with the bound.
#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>

#include "cli/exit_codes.hpp"
#include "cli/synth_arguments.hpp"
#include "cli/topology_cli.hpp"
#include "cli/verdict_exit_code.hpp"
#include "codegen/compile_error.hpp"
#include "semantics/ir/writer.hpp"
#include "semantics/topology/spec_reader.hpp"
#include "sim/simulate.hpp"
#include "synth/bounds/bounds.hpp"
#include "synth/trees/tree_evaluation.hpp"
#include "synth/trees/tree_synthesis.hpp"

namespace ccforge::cli {
namespace {

using nlohmann::ordered_json;

struct Outcome {
  synth::trees::TreeSynthesis synthesis;
  synth::trees::TreeEvaluation evaluation;
  std::string file;  // empty when no output directory was given
  double seconds = 0;
};

CollectiveType requestedCollective(const std::string& name) {
  std::optional<CollectiveType> c = parseCollectiveType(name);
  if (!c) throw std::invalid_argument("unknown collective '" + name + "'");
  return *c;
}

std::optional<ir::Protocol> parseProtocol(const std::string& name) {
  if (name == "Simple") return ir::Protocol::Simple;
  if (name == "LL") return ir::Protocol::LL;
  if (name == "LL128") return ir::Protocol::LL128;
  return std::nullopt;
}

std::string writeFile(const std::string& dir, const ir::Algorithm& algorithm) {
  std::filesystem::create_directories(dir);
  const std::string path = (std::filesystem::path(dir) / (algorithm.name + ".xml")).string();
  std::ofstream out(path);
  out << ir::toXml(algorithm);
  out.flush();
  if (!out) throw std::runtime_error("cannot write " + path);
  return path;
}

double fraction(const Outcome& o) {
  return o.evaluation.simulatedAlgbwGBps / topo::toDouble(o.synthesis.boundAlgbwGBps);
}

std::string text(const SynthArguments& args, const Outcome& o) {
  const auto& s = o.synthesis;
  return fmt::format(
      "ccforge synth {} {}: tree packing, {} GPUs\n"
      "  {} pieces per root on {} distinct trees, depth {}, {} channels, {} thread blocks, {} steps\n"
      "  bound {} GB/s, packing {} GB/s, simulated at 1 GiB {:.2f} GB/s ({:.1f}% of the bound)\n"
      "  {}: {}\n"
      "  synthesized, compiled, verified and simulated in {:.2f} s\n",
      args.topology, args.collective, s.ranks, s.piecesPerRoot, s.distinctTrees, s.depth, s.channels,
      s.compiled.stats.threadBlocks, s.compiled.stats.steps, topo::toFixed(s.boundAlgbwGBps, 2),
      topo::toFixed(s.packedAlgbwGBps, 2), o.evaluation.simulatedAlgbwGBps, 100 * fraction(o),
      o.file.empty() ? std::string("(not written: no -o)") : o.file, verify::verdictName(o.evaluation.report.verdict),
      o.seconds);
}

std::string json(const SynthArguments& args, const Outcome& o) {
  const auto& s = o.synthesis;
  ordered_json point;
  point["chunks"] = s.piecesPerRoot;
  point["steps"] = s.depth;
  point["rounds"] = s.busiestPairPieces;
  point["file"] = o.file.empty() ? ordered_json(nullptr) : ordered_json(o.file);
  point["verdict"] = verify::verdictName(o.evaluation.report.verdict);
  point["simulated_algbw_GBps"] = o.evaluation.simulatedAlgbwGBps;
  point["bound_algbw_GBps"] = topo::toDouble(s.boundAlgbwGBps);
  point["fraction_of_bound"] = fraction(o);
  ordered_json instance = point;
  instance["result"] = "packed";
  ordered_json j;
  j["method"] = "trees";
  j["topology"] = args.topology;
  j["collective"] = args.collective;
  j["ranks"] = s.ranks;
  j["frontier"] = ordered_json::array({point});
  j["instances"] = ordered_json::array({instance});
  j["bound_algbw_GBps"] = topo::toDouble(s.boundAlgbwGBps);
  j["bound_algbw_GBps_exact"] = topo::toString(s.boundAlgbwGBps);
  j["packed_algbw_GBps_exact"] = topo::toString(s.packedAlgbwGBps);
  j["simulated_algbw_GBps"] = o.evaluation.simulatedAlgbwGBps;
  j["simulated_bytes"] = synth::trees::kEvaluationBytes;
  j["fraction_of_bound"] = fraction(o);
  j["distinct_trees"] = s.distinctTrees;
  j["channels"] = s.channels;
  j["thread_blocks"] = s.compiled.stats.threadBlocks;
  j["max_flows"] = s.maxFlows;
  j["seconds"] = o.seconds;
  return j.dump(2) + "\n";
}

int synthesize(const SynthArguments& args) {
  const auto start = std::chrono::steady_clock::now();
  const CollectiveType collective = requestedCollective(args.collective);
  const std::optional<ir::Protocol> protocol = parseProtocol(args.protocol);
  if (!protocol) throw std::invalid_argument("unknown protocol '" + args.protocol + "' (Simple, LL, LL128)");
  if (args.format != "text" && args.format != "json") throw std::invalid_argument("unknown format '" + args.format + "'");
  const topo::Topology topology = topo::loadTopology(args.topology);
  Outcome o;
  o.synthesis = synth::trees::synthesizeTrees(
      topology, collective, {.protocol = *protocol, .timeoutSeconds = args.timeoutSeconds, .rounds = std::getenv("TREES_ROUNDS") ? std::atoi(std::getenv("TREES_ROUNDS")) : 4});
  const ir::Algorithm& algorithm = o.synthesis.compiled.algorithm;
  if (!args.outputDir.empty()) o.file = writeFile(args.outputDir, algorithm);
  o.evaluation = synth::trees::evaluateProgram(algorithm, o.file.empty() ? algorithm.name + ".xml" : o.file,
                                               topology, collective);
  o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << (args.format == "json" ? json(args, o) : text(args, o)) << std::flush;
  return exitCodeOf(o.evaluation.report.verdict);
}

}  // namespace

int runTreeSynthesis(const SynthArguments& args) {
  return runGuarded("synth", [&] {
    try {
      return synthesize(args);
    } catch (const synth::trees::SynthesisLimit& e) {
      std::cerr << "ccforge synth: " << e.what() << " (inconclusive)\n";
      return static_cast<int>(kExitInconclusive);
    } catch (const synth::BoundsLimit& e) {
      std::cerr << "ccforge synth: " << e.what() << " (inconclusive)\n";
      return static_cast<int>(kExitInconclusive);
    } catch (const codegen::CompileError& e) {
      std::cerr << "ccforge synth: no schedule within the runtime's limits: " << e.what() << "\n";
      return static_cast<int>(kExitInternalError);
    }
  });
}

}  // namespace ccforge::cli
