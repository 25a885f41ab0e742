// `ccforge synth --method trees`: spanning-tree packing after switch removal, and on multi-box
// machines also hierarchical composition, for allgather, reducescatter and allreduce
// (docs/synth-trees.md). Every emitted file is verified and simulated on the topology at
// 1 GiB; the report compares the simulated algbw with the bound.
#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/exit_codes.hpp"
#include "cli/synth_arguments.hpp"
#include "cli/topology_cli.hpp"
#include "cli/verdict_exit_code.hpp"
#include "codegen/compile_error.hpp"
#include "ir/writer.hpp"
#include "topology/spec_reader.hpp"
#include "synth/bounds/bounds.hpp"
#include "synth/trees/tree_evaluation.hpp"
#include "synth/trees/tree_synthesis.hpp"

namespace ccforge::cli {
namespace {

using nlohmann::ordered_json;
using synth::trees::Composition;

struct Outcome {
  Composition composition = Composition::Packing;
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

ir::Protocol requestedProtocol(const std::string& name) {
  if (name == "Simple") return ir::Protocol::Simple;
  if (name == "LL") return ir::Protocol::LL;
  if (name == "LL128") return ir::Protocol::LL128;
  throw std::invalid_argument("unknown protocol '" + name + "' (Simple, LL, LL128)");
}

std::vector<Composition> requestedCompositions(const std::string& name, const topo::Topology& t) {
  if (name == "trees") return {Composition::Packing};
  if (name == "hierarchical") return {Composition::Hierarchical};
  if (name == "auto") {
    if (t.boxCount() > 1) return {Composition::Packing, Composition::Hierarchical};
    return {Composition::Packing};
  }
  throw std::invalid_argument("unknown composition '" + name + "' (auto, trees, hierarchical)");
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

std::string text(const SynthArguments& args, const std::vector<Outcome>& outcomes) {
  std::string out;
  for (const Outcome& o : outcomes) {
    const auto& s = o.synthesis;
    out += fmt::format(
        "ccforge synth {} {}: {}, {} GPUs\n"
        "  {} chunks per root ({} rounds) on {} distinct trees, depth {}, {} channels, {} thread blocks, {} steps\n"
        "  bound {} GB/s, trees {} GB/s, simulated at 1 GiB {:.2f} GB/s ({:.1f}% of the bound)\n"
        "  {}: {}\n"
        "  synthesized, compiled, verified and simulated in {:.2f} s\n",
        args.topology, args.collective,
        o.composition == Composition::Packing ? "tree packing" : "hierarchical composition", s.ranks,
        s.piecesPerRoot, s.rounds, s.distinctTrees, s.depth, s.channels, s.compiled.stats.threadBlocks,
        s.compiled.stats.steps, topo::toFixed(s.boundAlgbwGBps, 2), topo::toFixed(s.packedAlgbwGBps, 2),
        o.evaluation.simulatedAlgbwGBps, 100 * fraction(o),
        o.file.empty() ? std::string("(not written: no -o)") : o.file,
        verify::verdictName(o.evaluation.report.verdict), o.seconds);
  }
  return out;
}

ordered_json point(const Outcome& o) {
  const auto& s = o.synthesis;
  ordered_json p;
  p["method"] = std::string(synth::trees::compositionName(o.composition));
  p["chunks"] = s.piecesPerRoot;
  p["steps"] = s.depth;
  p["rounds"] = s.busiestPairPieces;
  p["file"] = o.file.empty() ? ordered_json(nullptr) : ordered_json(o.file);
  p["verdict"] = verify::verdictName(o.evaluation.report.verdict);
  p["simulated_algbw_GBps"] = o.evaluation.simulatedAlgbwGBps;
  p["bound_algbw_GBps"] = topo::toDouble(s.boundAlgbwGBps);
  p["trees_algbw_GBps_exact"] = topo::toString(s.packedAlgbwGBps);
  p["fraction_of_bound"] = fraction(o);
  p["pipeline_rounds"] = s.rounds;
  p["distinct_trees"] = s.distinctTrees;
  p["channels"] = s.channels;
  p["thread_blocks"] = s.compiled.stats.threadBlocks;
  p["max_flows"] = s.maxFlows;
  p["seconds"] = o.seconds;
  return p;
}

std::string json(const SynthArguments& args, const std::vector<Outcome>& outcomes) {
  ordered_json j;
  j["method"] = "trees";
  j["topology"] = args.topology;
  j["collective"] = args.collective;
  j["ranks"] = outcomes.front().synthesis.ranks;
  j["bound_algbw_GBps"] = topo::toDouble(outcomes.front().synthesis.boundAlgbwGBps);
  j["bound_algbw_GBps_exact"] = topo::toString(outcomes.front().synthesis.boundAlgbwGBps);
  j["simulated_bytes"] = synth::trees::kEvaluationBytes;
  const Outcome* best = &outcomes.front();
  j["frontier"] = ordered_json::array();
  j["instances"] = ordered_json::array();
  for (const Outcome& o : outcomes) {
    if (o.evaluation.simulatedAlgbwGBps > best->evaluation.simulatedAlgbwGBps) best = &o;
    j["frontier"].push_back(point(o));
    ordered_json instance = point(o);
    instance["result"] = "packed";
    j["instances"].push_back(instance);
  }
  j["simulated_algbw_GBps"] = best->evaluation.simulatedAlgbwGBps;
  j["fraction_of_bound"] = fraction(*best);
  j["best"] = std::string(synth::trees::compositionName(best->composition));
  return j.dump(2) + "\n";
}

// Exit codes by severity: 6, then 2, then 10, then 5, then 0 (docs/exit-codes.md).
int moreSevere(int a, int b) {
  auto rank = [](int code) {
    switch (code) {
      case kExitInternalError: return 4;
      case kExitMalformedInput: return 3;
      case kExitViolation: return 2;
      case kExitInconclusive: return 1;
      default: return 0;
    }
  };
  return rank(a) >= rank(b) ? a : b;
}

int synthesize(const SynthArguments& args) {
  const CollectiveType collective = requestedCollective(args.collective);
  const ir::Protocol protocol = requestedProtocol(args.protocol);
  if (args.format != "text" && args.format != "json") throw std::invalid_argument("unknown format '" + args.format + "'");
  const topo::Topology topology = topo::loadTopology(args.topology);
  std::vector<Outcome> outcomes;
  int code = kExitVerified;
  int failed = kExitVerified;  // the worst failure of a composition that produced nothing
  for (Composition composition : requestedCompositions(args.composition, topology)) {
    const auto start = std::chrono::steady_clock::now();
    Outcome o;
    o.composition = composition;
    try {
      o.synthesis = synth::trees::synthesizeTrees(
          topology, collective,
          {.composition = composition, .protocol = protocol, .timeoutSeconds = args.timeoutSeconds});
    } catch (const codegen::CompileError& e) {
      // The other composition may still succeed: the command fails only when none does.
      std::cerr << "ccforge synth: " << synth::trees::compositionName(composition)
                << ": no schedule within the runtime's limits: " << e.what() << "\n";
      failed = moreSevere(failed, kExitInternalError);
      continue;
    } catch (const synth::trees::SynthesisLimit& e) {
      std::cerr << "ccforge synth: " << synth::trees::compositionName(composition) << ": " << e.what()
                << " (inconclusive)\n";
      failed = moreSevere(failed, kExitInconclusive);
      continue;
    }
    const ir::Algorithm& algorithm = o.synthesis.compiled.algorithm;
    if (!args.outputDir.empty()) o.file = writeFile(args.outputDir, algorithm);
    o.evaluation = synth::trees::evaluateProgram(algorithm, o.file.empty() ? algorithm.name + ".xml" : o.file,
                                                 topology, collective);
    o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    code = moreSevere(code, exitCodeOf(o.evaluation.report.verdict));
    outcomes.push_back(std::move(o));
  }
  if (outcomes.empty()) return failed;
  std::cout << (args.format == "json" ? json(args, outcomes) : text(args, outcomes)) << std::flush;
  return code;
}

}  // namespace

int runTreeSynthesis(const SynthArguments& args) {
  return runGuarded("synth", [&] {
    try {
      return synthesize(args);
    } catch (const synth::BoundsLimit& e) {
      std::cerr << "ccforge synth: " << e.what() << " (inconclusive)\n";
      return static_cast<int>(kExitInconclusive);
    }
  });
}

}  // namespace ccforge::cli
