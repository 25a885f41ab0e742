// `ccforge synth --method trees`: spanning-tree packing after switch removal, and on multi-box
// machines also hierarchical composition, for allgather, reducescatter and allreduce
// (docs/synth-trees.md). The run (synth/trees/tree_run.hpp) verifies and simulates every
// emitted file; this command maps the request and the outcome to text, JSON and an exit code.
#include <algorithm>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>

#include "cli/exit_codes.hpp"
#include "cli/progress.hpp"
#include "cli/synth_arguments.hpp"
#include "cli/synth_index.hpp"
#include "cli/topology_cli.hpp"
#include "cli/verdict_exit_code.hpp"
#include "ir/names.hpp"
#include "synth/bounds/bounds.hpp"
#include "synth/trees/tree_report.hpp"
#include "synth/trees/tree_run.hpp"

namespace ccforge::cli {
namespace {

using synth::trees::Composition;
using synth::trees::TreeFailure;

semantics::CollectiveType requestedCollective(const std::string& name) {
  std::optional<semantics::CollectiveType> c = semantics::parseCollectiveType(name);
  if (!c) throw std::invalid_argument("unknown collective '" + name + "'");
  return *c;
}

std::optional<Composition> requestedComposition(const std::string& name) {
  if (name == "trees") return Composition::Packing;
  if (name == "hierarchical") return Composition::Hierarchical;
  if (name == "rings") return Composition::Rings;
  if (name == "rings-split") return Composition::RingsSplit;
  if (name == "two-step") return Composition::TwoStep;
  if (name == "auto") return std::nullopt;
  throw std::invalid_argument("unknown composition '" + name +
                              "' (auto, trees, hierarchical, rings, rings-split, two-step)");
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

int synthesize(const SynthArguments& args, const SynthTarget& target) {
  const semantics::CollectiveType collective = requestedCollective(args.collective);
  const std::optional<ir::Protocol> protocol = ir::parseProtocol(args.protocol);
  if (!protocol) throw std::invalid_argument("unknown protocol '" + args.protocol + "' (Simple, LL, LL128)");
  if (args.format != "text" && args.format != "json")
    throw std::invalid_argument("unknown format '" + args.format + "'");
  const topo::Topology& topology = target.topology;
  const synth::trees::TreeRun run =
      synth::trees::runTreeSynthesis(topology, collective,
                                     {.composition = requestedComposition(args.composition),
                                      .protocol = *protocol,
                                      .timeoutSeconds = args.timeoutSeconds,
                                      .outputDirectory = args.outputDir,
                                      .ncclMargin = ncclMargin(args),
                                      .progress = [](const std::string& phase) { progress::phase(phase); }});
  progress::done();
  // A composition that produced nothing fails the command only when none produced anything: a
  // time limit is inconclusive (5); no schedule within the runtime's limits, with the limit named,
  // is a request the runtime cannot serve (1), not a bug.
  int failed = kExitVerified;
  for (const TreeFailure& f : run.failures) {
    const bool limit = f.kind == TreeFailure::Kind::TimeLimit;
    std::cerr << "ccforge synth: " << synth::trees::compositionName(f.composition) << ": "
              << (limit ? f.message + " (inconclusive)" : "no schedule within the runtime's limits: " + f.message)
              << "\n";
    if (limit)
      failed = kExitInconclusive;
    else if (failed == kExitVerified)
      failed = kExitUsage;
  }
  std::vector<NotWritten> notWritten;
  for (const synth::trees::TreeOutcome& o : run.outcomes)
    if (o.file.empty())
      notWritten.push_back(
          {std::string(synth::trees::compositionName(o.composition)) + " composition", o.deployment.notWritten});
  for (const TreeFailure& f : run.failures)
    notWritten.push_back(
        {std::string(synth::trees::compositionName(f.composition)) + " composition",
         (f.kind == TreeFailure::Kind::TimeLimit ? "" : "no schedule within the runtime's limits: ") + f.message});
  const auto written = static_cast<size_t>(
      std::count_if(run.outcomes.begin(), run.outcomes.end(), [](const auto& o) { return !o.file.empty(); }));
  const std::vector<std::string> warnings =
      nothingWrittenWarnings(args.outputDir, written, notWritten, "no composition produced a program");
  printWarnings(std::cerr, warnings);
  if (run.outcomes.empty()) return failed;
  int code = kExitVerified;
  for (const synth::trees::TreeOutcome& o : run.outcomes)
    code = moreSevere(code, exitCodeOf(o.evaluation.report.verdict));
  const auto deployable = std::count_if(run.outcomes.begin(), run.outcomes.end(),
                                        [](const auto& o) { return o.deployment.window.has_value(); });
  // Nothing deployable because the time ran out is inconclusive, as when no composition finished.
  if (run.timeLimitReached && deployable == 0) code = moreSevere(code, kExitInconclusive);
  if (args.outputDir.empty() && deployable > 0)
    std::cerr << "ccforge synth: nothing was written (no -o); pass -o DIR to write the " << deployable
              << " deployable program" << (deployable == 1 ? "" : "s") << "\n";
  const std::string report =
      withOutputSummary(withProcessGroup(synth::trees::treeRunJson(args.topology, args.collective, run.outcomes),
                                         args.topology, topology, target.group, target.machineGpus),
                        args.outputDir, written, warnings);
  if (!args.outputDir.empty()) writeSynthIndex(args.outputDir, target.filePrefix, report);
  std::cout << (args.format == "json" ? report
                                      : processGroupLine(args.topology, target.group, target.machineGpus, topology) +
                                            synth::trees::treeRunText(args.topology, args.collective, run.outcomes,
                                                                      !args.outputDir.empty()))
            << std::flush;
  return code;
}

}  // namespace

int runTreeSynthesis(const SynthArguments& args, const SynthTarget& target) {
  return runGuarded("synth", [&] {
    try {
      return synthesize(args, target);
    } catch (const synth::BoundsLimit& e) {
      std::cerr << "ccforge synth: " << e.what() << " (inconclusive)\n";
      return static_cast<int>(kExitInconclusive);
    }
  });
}

}  // namespace ccforge::cli
