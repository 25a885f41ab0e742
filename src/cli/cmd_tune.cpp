// `ccforge tune TOPOLOGY COLLECTIVE... -o DIR`: a deployable algorithm directory where candidates
// beat NCCL's predicted fallback (docs/tune.md).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <chrono>
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "cli/option_checks.hpp"
#include "cli/topology_cli.hpp"
#include "driver/machine_boxes.hpp"
#include "ir/names.hpp"
#include "sim/sizes.hpp"
#include "topology/spec_reader.hpp"
#include "tune/output.hpp"

namespace ccforge::cli {
namespace {

struct TuneArguments {
  std::string topology;
  std::vector<std::string> collectives;
  std::string output;
  std::string minSize = "1K";
  std::string maxSize = "4G";
  double marginPercent = sim::kDefaultMargin * 100;
  std::string arch;
  std::vector<std::string> files;
  bool noLibrary = false;
  bool noSynth = false;
  double synthSeconds = 20;
  bool force = false;
};

uint64_t oneSize(const std::string& option, const std::string& text) {
  const std::vector<uint64_t> sizes = sim::parseSizes(text);
  if (sizes.size() != 1) throw std::invalid_argument(option + " takes one size, e.g. 1K or 4G");
  return sizes.front();
}

int runTune(const TuneArguments& args) {
  return runGuarded("tune", [&] {
    const auto start = std::chrono::steady_clock::now();
    const topo::Topology topology = topo::loadTopology(args.topology);
    tune::TuneRun run;
    run.topology = topology.name;
    run.topologyArgument = args.topology;
    run.boxes = driver::boxLayoutOf(topology);
    run.errorSource =
        topology.calibration && topology.calibration->errorLarge
            ? "the spec's calibration, fitted to " + std::to_string(topology.calibration->logs.size()) + " log(s)"
            : "the uncalibrated model's defaults, docs/calibrate.md";
    run.options.minBytes = oneSize("-b", args.minSize);
    run.options.maxBytes = oneSize("-e", args.maxSize);
    run.options.margin = args.marginPercent / 100;
    run.options.arch = !args.arch.empty() ? *sim::parseArch(args.arch) : sim::archOf(topology);
    tune::tunedSizes(run.options);  // checks the range before the work starts

    std::vector<semantics::CollectiveType> collectives;
    for (const std::string& name : args.collectives) {
      const std::optional<semantics::CollectiveType> c = semantics::parseCollectiveType(name);
      if (!c || (*c != semantics::CollectiveType::AllReduce && *c != semantics::CollectiveType::AllGather &&
                 *c != semantics::CollectiveType::ReduceScatter && *c != semantics::CollectiveType::AllToAll))
        throw std::invalid_argument("tune takes allreduce, allgather, reducescatter and alltoall, not '" + name + "'");
      if (std::find(collectives.begin(), collectives.end(), *c) == collectives.end()) collectives.push_back(*c);
    }
    tune::CandidateOptions candidateOptions{.library = !args.noLibrary,
                                            .synthesize = !args.noSynth,
                                            .synthesisSeconds = args.synthSeconds,
                                            .userFiles = args.files};
    for (semantics::CollectiveType c : collectives) {
      tune::CandidateSet set = tune::gatherCandidates(topology, c, candidateOptions);
      run.collectives.push_back(tune::tuneCollective(topology, c, std::move(set), run.options));
    }
    const tune::WrittenDirectory written = tune::writeTuneDirectory(run, args.output, args.force);

    for (const tune::CollectiveTuning& t : run.collectives) {
      std::cout << fmt::format("{} on {} ({} ranks): {} candidates, {} not usable\n",
                               ir::collectiveName(irKindOf(t.collective)), run.topology, t.ranks,
                               t.set.candidates.size(), t.set.rejected.size());
      if (t.windows.empty()) std::cout << "  NCCL at every size (no candidate beats it by the margin)\n";
      for (const tune::Window& w : t.windows)
        std::cout << fmt::format("  {} {}..{} bytes: {} -> {}\n", callFormName(w.form), w.minBytes, w.maxBytes,
                                 t.set.candidates[w.candidate].name, w.file);
    }
    for (const std::string& w : written.warnings) std::cerr << "ccforge tune: " << w << "\n";
    const bool clean = written.check.verdict == verify::Verdict::Verified && written.check.ambiguous.empty() &&
                       written.legacyMisrouted.empty();
    std::cout << fmt::format(
        "{} files written to {}; verify {}: {}; {} power-of-two calls of 1 KiB..4 GiB checked, {} "
        "accepted by more than one file\n",
        written.files.size(), args.output, args.output, verify::verdictName(written.check.verdict),
        written.check.callsChecked, written.check.ambiguous.size());
    for (const std::string& f : written.check.findings) std::cout << "  " << f << "\n";
    for (const std::string& a : written.check.ambiguous) std::cout << "  ambiguous: " << a << "\n";
    for (const std::string& l : written.legacy) std::cout << "legacy MSCCL_CONFIG " << l << "\n";
    for (const std::string& m : written.legacyMisrouted) std::cout << "  legacy misrouted: " << m << "\n";
    std::cout << fmt::format("report: {}/report/report.md ({:.1f} s)\n", args.output,
                             std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    return clean ? kExitVerified : kExitViolation;
  });
}

}  // namespace

void registerTuneCommand(CLI::App& app, CommandContext& context) {
  auto args = std::make_shared<TuneArguments>();
  CLI::App* cmd = app.add_subcommand(
      "tune",
      "Write an algorithm directory the executor loads as it is: windows where library, synthesized or given "
      "programs beat NCCL's predicted fallback, with a report and plots (exit 0 written and verified, 10 the "
      "directory check failed, 1 usage, 2 unusable topology or file)");
  addTopologyArgument(cmd, args->topology);
  cmd->add_option("collectives", args->collectives, "allreduce, allgather, reducescatter, alltoall")->required();
  cmd->add_option("-o,--output", args->output, "the algorithm directory to write (report in DIR/report/)")->required();
  cmd->add_option("-b,--minbytes", args->minSize, "smallest size tuned (a power of two, nccl-tests' size)")
      ->capture_default_str();
  cmd->add_option("-e,--maxbytes", args->maxSize, "largest size tuned (a power of two)")->capture_default_str();
  cmd->add_option("--margin", args->marginPercent, "percent a candidate's algbw must exceed NCCL's")
      ->check(finiteRange(0, 1000))
      ->capture_default_str();
  cmd->add_option("--arch", args->arch,
                  "GPU generation for the simulator and NCCL's model (default: the spec's \"sm\")")
      ->check(CLI::IsMember({"sm70", "sm80", "sm90", "sm100"}));
  cmd->add_option("--file", args->files, "an MSCCL-IR file to consider as a candidate (repeatable)");
  cmd->add_flag("--no-library", args->noLibrary, "leave out the algorithm library");
  cmd->add_flag("--no-synth", args->noSynth, "leave out tree synthesis");
  cmd->add_option("--synth-seconds", args->synthSeconds, "time limit of each tree synthesis")
      ->check(CLI::Range(0.1, 3600.0))
      ->capture_default_str();
  cmd->add_flag("--force", args->force, "replace the .xml files and report/ of a directory tune wrote before");
  cmd->callback([args, &context] { context.exitCode = runTune(*args); });
}

}  // namespace ccforge::cli
