// `ccforge synth TOPOLOGY COLLECTIVE`: synthesizes algorithms (docs/synth.md). Multi-box
// topologies go to tree packing (cmd_synth_trees.cpp); single boxes to SMT synthesis in SCCL's
// model, whose every result is lowered through the DSL compiler and verified.
#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "cli/option_checks.hpp"
#include "cli/progress.hpp"
#include "cli/synth_arguments.hpp"
#include "cli/synth_index.hpp"
#include "cli/topology_cli.hpp"
#include "cli/verdict_exit_code.hpp"
#include "ir/names.hpp"
#include "synth/method.hpp"
#include "synth/sccl/smt_report.hpp"
#include "synth/sccl/smt_run.hpp"
#include "topology/spec_reader.hpp"
#include "verify/report_writers.hpp"

namespace ccforge::cli {
namespace {

using synth::sccl::FrontierPoint;
using synth::sccl::instanceName;
using synth::sccl::InstanceResult;
using synth::sccl::SmtRun;

struct Request {
  semantics::CollectiveType collective = semantics::CollectiveType::AllGather;
  int32_t root = 0;
};

Request parseRequest(const std::string& text) {
  const size_t colon = text.find(':');
  const std::string name = text.substr(0, colon);
  auto type = semantics::parseCollectiveType(name);
  if (!type) throw std::invalid_argument("unknown collective '" + name + "'");
  Request r{*type, 0};
  if (colon != std::string::npos) {
    if (!semantics::isRooted(*type)) throw std::invalid_argument(name + " has no root");
    try {
      size_t used = 0;
      r.root = std::stoi(text.substr(colon + 1), &used);
      if (used != text.size() - colon - 1) throw std::invalid_argument("");
    } catch (const std::exception&) {
      throw std::invalid_argument("bad root in '" + text + "'");
    }
  }
  return r;
}

// The search the flags name (docs/synth.md): one mode at most.
synth::sccl::SearchMode searchMode(const SynthArguments& a) {
  const int modes = (a.steps || a.rounds || a.chunks ? 1 : 0) + a.pareto + a.leastSteps + a.bandwidthOptimal;
  if (modes > 1)
    throw std::invalid_argument("give one of --steps/--rounds/--chunks, --pareto, --least-steps, --bandwidth-optimal");
  if (a.leastSteps) return synth::sccl::SearchMode::LeastSteps;
  if (a.bandwidthOptimal) return synth::sccl::SearchMode::BandwidthOptimal;
  if (!(a.steps || a.rounds || a.chunks)) return synth::sccl::SearchMode::Pareto;
  if (!(a.steps && a.rounds && a.chunks))
    throw std::invalid_argument("a single instance needs all of --chunks, --steps and --rounds");
  return synth::sccl::SearchMode::Instance;
}

int exitCode(const SmtRun& run) {
  for (const FrontierPoint& p : run.points)
    if (!p.emitted.verified()) return kExitInternalError;
  if (!run.result.complete) return kExitInconclusive;
  if (run.points.empty()) return run.history.empty() ? kExitInconclusive : kExitViolation;
  return kExitVerified;
}

int runSmtSynthesis(const SynthArguments& a, const SynthTarget& target, const Request& request) {
  const topo::Topology& topology = target.topology;
  auto solver = smt::parseSolverKind(a.solver);
  if (!solver) throw std::invalid_argument("unknown solver '" + a.solver + "'");
  auto protocol = ir::parseProtocol(a.protocol);
  if (!protocol) throw std::invalid_argument("unknown protocol '" + a.protocol + "'");
  synth::sccl::SmtRunOptions options;
  options.synthesizer.solver = *solver;
  options.mode = searchMode(a);
  if (options.mode == synth::sccl::SearchMode::Instance)
    options.chunks = *a.chunks, options.steps = *a.steps, options.rounds = *a.rounds;
  options.limits = {a.maxChunks, a.maxSteps};
  options.synthesizer.instanceTimeoutSeconds = a.instanceTimeoutSeconds;
  options.synthesizer.totalTimeoutSeconds = a.timeoutSeconds;
  options.files = {.protocol = *protocol,
                   .outputDirectory = a.outputDir,
                   .programPrefix = fmt::format("sccl-{}-{}", a.collective, topology.name),
                   .filePrefix = target.filePrefix,
                   .ncclMargin = ncclMargin(a)};
  options.synthesizer.progress = [](const InstanceResult& r) {
    std::cerr << fmt::format("ccforge synth: {} {} {:.2f} s{}\n", instanceName(r.chunks, r.steps, r.rounds),
                             synth::sccl::verdictName(r.verdict), r.seconds, r.note.empty() ? "" : " (" + r.note + ")");
  };
  if (progress::enabled())
    options.synthesizer.starting = [](int32_t c, int32_t s, std::optional<int32_t> r) {
      progress::phase(
          fmt::format("solving instance {}", r ? instanceName(c, s, *r) : fmt::format("({},{},free)", c, s)));
    };
  options.phase = [](const std::string& p) { progress::phase(p); };
  const SmtRun run = synth::sccl::runSmtSynthesis(topology, request.collective, request.root, options);

  for (const FrontierPoint& p : run.points) {
    if (p.emitted.verified()) continue;
    const InstanceResult& r = p.instance;
    std::cerr << "ccforge synth: internal error: " << instanceName(r.chunks, r.steps, r.rounds) << " does not "
              << (p.emitted.error.empty() ? "verify" : "compile: " + p.emitted.error) << "\n";
    if (p.emitted.error.empty()) verify::writeText(std::cerr, {p.emitted.report}, verify::RunInfo{"msccl-executor", 6});
  }
  std::vector<NotWritten> notWritten;
  for (const FrontierPoint& p : run.points)
    if (p.file.empty())
      notWritten.push_back(
          {fmt::format("(C,S,R) = {} {}", instanceName(p.instance.chunks, p.instance.steps, p.instance.rounds),
                       callFormName(p.form)),
           p.deployment.notWritten});
  const auto written = static_cast<size_t>(
      std::count_if(run.points.begin(), run.points.end(), [](const FrontierPoint& p) { return !p.file.empty(); }));
  const std::vector<std::string> warnings =
      nothingWrittenWarnings(a.outputDir, written, notWritten,
                             run.result.complete ? "no schedule exists within the search's limits"
                                                 : "the search found no schedule: " + run.result.note);
  progress::done();
  printWarnings(std::cerr, warnings);
  const std::string report = withOutputSummary(withProcessGroup(synth::sccl::smtRunJson(a.topology, a.solver, run),
                                                                a.topology, topology, target.group, target.machineGpus),
                                               a.outputDir, written, warnings);
  if (!a.outputDir.empty()) writeSynthIndex(a.outputDir, target.filePrefix, report);
  std::cout << (a.format == "json"
                    ? report
                    : processGroupLine(a.topology, target.group, target.machineGpus, topology) +
                          synth::sccl::smtRunText(a.topology, a.collective, a.solver, run, !a.outputDir.empty()))
            << std::flush;
  const auto deployable = std::count_if(run.points.begin(), run.points.end(),
                                        [](const FrontierPoint& p) { return p.deployment.window.has_value(); });
  if (a.outputDir.empty() && deployable > 0)
    std::cerr << "ccforge synth: nothing was written (no -o); pass -o DIR to write the " << deployable
              << " deployable program" << (deployable == 1 ? "" : "s") << "\n";
  return exitCode(run);
}

// -o DIR is checked before any search: it must be (or become) a writable directory. A missing
// one is created to prove it can be and removed again, so that a search killed midway leaves no
// empty directory behind; the first file written creates it for good.
void checkOutputDirectory(const std::string& dir) {
  if (dir.empty()) return;
  std::error_code ec;
  if (std::filesystem::exists(dir, ec) && !std::filesystem::is_directory(dir, ec))
    throw base::OutputError("-o " + dir + ": it exists and is not a directory (synth -o names a directory)");
  std::filesystem::path firstMissing;
  for (std::filesystem::path p = std::filesystem::absolute(dir, ec); !p.empty() && !std::filesystem::exists(p, ec);
       p = p.parent_path()) {
    firstMissing = p;
    if (p == p.parent_path()) break;
  }
  std::filesystem::create_directories(dir, ec);
  if (ec) throw base::OutputError("-o " + dir + ": cannot create the directory: " + ec.message());
  const bool writable = ::access(dir.c_str(), W_OK) == 0;
  const int accessErrno = errno;
  if (!firstMissing.empty()) std::filesystem::remove_all(firstMissing, ec);
  if (!writable)
    throw base::OutputError("-o " + dir + ": cannot write into the directory: " + std::strerror(accessErrno));
}

int runSynth(const SynthArguments& a) {
  progress::start("synth");
  const Request request = parseRequest(a.collective);
  progress::phase("loading topology " + a.topology);
  SynthTarget target;
  target.topology = topo::loadTopology(a.topology);
  target.group = processGroupRanks(a.group);
  target.machineGpus = static_cast<int32_t>(target.topology.gpus().size());
  if (!target.group.empty()) target.topology = topo::processGroupTopology(target.topology, target.group);
  target.filePrefix =
      synthFilePrefix(a.topology, a.collective, target.group.empty() ? "" : topo::processGroupTag(target.group));
  const synth::Method method = synth::methodFor(
      target.topology, a.method == "auto"
                           ? std::nullopt
                           : std::optional(a.method == "trees" ? synth::Method::Trees : synth::Method::Smt));
  synth::checkRequestSize(target.topology, method, {a.chunks, a.steps, a.rounds});
  checkOutputDirectory(a.outputDir);
  if (method == synth::Method::Trees) return runTreeSynthesis(a, target);
  return runSmtSynthesis(a, target, request);
}

}  // namespace

void registerSynthCommand(CLI::App& app, CommandContext& context) {
  auto args = std::make_shared<SynthArguments>();
  CLI::App* cmd = app.add_subcommand(
      "synth",
      "Synthesize collective algorithms for a topology, lowered to verified MSCCL-IR (exit 0 found and "
      "verified, 10 proven impossible, 5 inconclusive within the limits, 1 usage, 2 unusable topology)");
  addTopologyArgument(cmd, args->topology);
  cmd->add_option(
         "collective", args->collective,
         "allgather, reducescatter, allreduce, broadcast[:ROOT], reduce[:ROOT], gather[:ROOT], scatter[:ROOT], "
         "alltoall")
      ->required();
  cmd->add_option("--chunks", args->chunks, "C: chunks per rank share (alltoall: per rank buffer) of one instance");
  cmd->add_option("--steps", args->steps, "S: synchronous steps of one instance");
  cmd->add_option("--rounds", args->rounds, "R: rounds (link transfers of one chunk) of one instance");
  cmd->add_flag("--pareto", args->pareto, "the Pareto frontier of steps against rounds per chunk (the default)");
  cmd->add_flag("--least-steps", args->leastSteps, "the fewest steps, then the fewest rounds there");
  cmd->add_flag("--bandwidth-optimal", args->bandwidthOptimal, "rounds per chunk at the bound, fewest steps");
  cmd->add_option("--solver", args->solver, "z3 or cvc5")->check(CLI::IsMember({"z3", "cvc5"}))->capture_default_str();
  cmd->add_option("--method", args->method, "auto, smt or trees (auto: trees for multi-box topologies)")
      ->check(CLI::IsMember({"auto", "smt", "trees"}))
      ->capture_default_str();
  cmd->add_option(
         "--composition", args->composition,
         "tree method: trees (packing), hierarchical, rings (allgather on boxes without a switch), rings-split "
         "(the same on several boxes with second network entries, for large sizes), two-step (alltoall on boxes "
         "joined by rails), or auto (packing, on multi-box machines up to 32 GPUs; hierarchical on multi-box "
         "machines; both ring compositions for allgather where the boxes have rings; two-step for alltoall)")
      ->check(CLI::IsMember({"auto", "trees", "hierarchical", "rings", "rings-split", "two-step"}))
      ->capture_default_str();
  cmd->add_option("--protocol", args->protocol, "protocol of the emitted IR")
      ->check(CLI::IsMember({"Simple", "LL", "LL128"}))
      ->capture_default_str();
  cmd->add_option("-o,--output-dir", args->outputDir,
                  "write the frontier points the runtime can select into this directory, each with the window of "
                  "sizes where it is predicted the fastest and to beat NCCL by more than the model's error");
  cmd->add_option("--margin", args->marginPercent, "-o: percent a file's algbw must exceed NCCL's, at least")
      ->check(finiteRange(0, 1000))
      ->capture_default_str();
  cmd->add_flag(
      "--all-windows", args->allWindows,
      "-o: windows from comparing the programs among themselves only, not against NCCL (for study, not to deploy)");
  addProcessGroupOptions(cmd, args->group);
  addTextOrJsonFormat(cmd, args->format);
  cmd->add_option("--timeout", args->timeoutSeconds, "seconds for the whole search")
      ->check(finiteRange(0.001, 1e6))
      ->capture_default_str();
  cmd->add_option("--instance-timeout", args->instanceTimeoutSeconds, "seconds per solver call")
      ->check(finiteRange(0.001, 1e6))
      ->capture_default_str();
  cmd->add_option("--max-chunks", args->maxChunks, "largest C the searches try (default: from the bandwidth bound)")
      ->check(CLI::Range(1, 4096));
  cmd->add_option("--max-steps", args->maxSteps, "largest S the searches try (default: steps bound + GPUs)")
      ->check(CLI::Range(1, 4096));
  cmd->callback([args, &context] { context.exitCode = runGuarded("synth", [&] { return runSynth(*args); }); });
}

}  // namespace ccforge::cli
