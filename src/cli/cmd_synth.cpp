// `ccforge synth TOPOLOGY COLLECTIVE`: synthesizes algorithms (docs/synth.md). Multi-box
// topologies go to tree packing (cmd_synth_trees.cpp); single boxes to SMT synthesis in SCCL's
// model, whose every result is lowered through the DSL compiler and verified.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>

#include "ir/json_document.hpp"
#include "cli/commands.hpp"
#include "cli/option_checks.hpp"
#include "cli/progress.hpp"
#include "cli/synth_arguments.hpp"
#include "cli/synth_index.hpp"
#include "cli/topology_cli.hpp"
#include "cli/verdict_exit_code.hpp"
#include "ir/limits.hpp"
#include "ir/names.hpp"
#include "topology/spec_reader.hpp"
#include "synth/sccl/cost.hpp"
#include "synth/sccl/frontier_files.hpp"
#include "synth/sccl/search.hpp"
#include "verify/report_writers.hpp"

namespace ccforge::cli {
namespace {

using nlohmann::ordered_json;
using synth::sccl::InstanceResult;
using synth::sccl::Verdict;

struct Request {
  CollectiveType collective = CollectiveType::AllGather;
  int32_t root = 0;
};

Request parseRequest(const std::string& text) {
  const size_t colon = text.find(':');
  const std::string name = text.substr(0, colon);
  auto type = parseCollectiveType(name);
  if (!type) throw std::invalid_argument("unknown collective '" + name + "'");
  Request r{*type, 0};
  if (colon != std::string::npos) {
    if (!isRooted(*type)) throw std::invalid_argument(name + " has no root");
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

std::string triple(int32_t c, int32_t s, int32_t r) { return fmt::format("({},{},{})", c, s, r); }

using synth::sccl::FrontierPoint;

synth::sccl::SearchResult search(synth::sccl::Synthesizer& synth, const SynthArguments& a) {
  const int modes = (a.steps || a.rounds || a.chunks ? 1 : 0) + a.pareto + a.leastSteps + a.bandwidthOptimal;
  if (modes > 1)
    throw std::invalid_argument("give one of --steps/--rounds/--chunks, --pareto, --least-steps, --bandwidth-optimal");
  const synth::sccl::SearchLimits limits{a.maxChunks, a.maxSteps};
  if (a.leastSteps) return leastStepsSearch(synth, limits);
  if (a.bandwidthOptimal) return bandwidthOptimalSearch(synth, limits);
  if (!(a.steps || a.rounds || a.chunks)) return paretoSearch(synth, limits);
  if (!(a.steps && a.rounds && a.chunks))
    throw std::invalid_argument("a single instance needs all of --chunks, --steps and --rounds");
  synth::sccl::SearchResult out;
  InstanceResult r = synth.solve(*a.chunks, *a.steps, *a.rounds);
  if (r.verdict == Verdict::Sat) out.frontier.push_back(r);
  if (r.verdict == Verdict::Unknown) {
    out.complete = false;
    out.note = r.note;
  }
  return out;
}

std::string bytes(double b) {
  if (b >= 1 << 20) return fmt::format("{:.1f} MiB", b / (1 << 20));
  if (b >= 1 << 10) return fmt::format("{:.1f} KiB", b / (1 << 10));
  return fmt::format("{:.0f} B", b);
}

std::string windowText(const std::optional<synth::deploy::SizeRange>& w) {
  if (!w) return "never the cheapest";
  if (!w->high) return w->low == 0 ? "cheapest at every size" : "cheapest for M >= " + bytes(w->low);
  if (w->low == 0) return "cheapest for M < " + bytes(*w->high);
  return "cheapest for " + bytes(w->low) + " <= M < " + bytes(*w->high);
}

struct Counts {
  int sat = 0, unsat = 0, unknown = 0, pruned = 0;
  double seconds = 0;
};
Counts count(const std::vector<InstanceResult>& history) {
  Counts c;
  for (const auto& r : history) {
    c.seconds += r.seconds;
    (r.verdict == Verdict::Sat       ? c.sat
     : r.verdict == Verdict::Unsat   ? c.unsat
     : r.verdict == Verdict::Unknown ? c.unknown
                                     : c.pruned)++;
  }
  return c;
}

std::string text(const SynthArguments& a, const synth::sccl::Synthesizer& synth,
                 const synth::sccl::SearchResult& result, const std::vector<FrontierPoint>& points,
                 const synth::sccl::CostModel& cost) {
  std::string out = fmt::format("synth {} {}: {} GPUs; bounds: steps >= {}, rounds per chunk >= {}; solver {}\n",
                                a.topology, a.collective, synth.ranks(), synth.bound().stepsLowerBound,
                                topo::toString(synth.bound().roundsPerChunkLowerBound), a.solver);
  out += fmt::format("cost T = S*alpha + (R/C)*m*beta, m = M/{:.0f}, alpha {} us, beta {:.6g} us/byte\n",
                     cost.bytesPerChunkUnit, cost.alphaUs, cost.betaUsPerByte);
  if (points.empty()) out += "no schedule found\n";
  for (const FrontierPoint& p : points) {
    const std::string substitute =
        p.instance.substituteFor.empty() ? "" : "  (power-of-two C for " + p.instance.substituteFor + ")";
    out += fmt::format("(C,S,R) = {}  R/C {}{}  {}  {}: {}\n",
                       triple(p.instance.chunks, p.instance.steps, p.instance.rounds), topo::toString(p.roundsPerChunk),
                       substitute, windowText(p.cheapest), callFormName(p.form),
                       (p.emitted.verified() ? "verified" : "not verified") +
                           synth::deploy::outcomeText(p.deployment, p.file, !a.outputDir.empty()));
  }
  const Counts c = count(synth.history());
  out += fmt::format("instances: {} (sat {}, unsat {}, unknown {}, pruned {}), solver time {:.2f} s\n",
                     synth.history().size(), c.sat, c.unsat, c.unknown, c.pruned, c.seconds);
  if (!result.complete) out += "incomplete: " + result.note + "\n";
  return out;
}

std::string json(const SynthArguments& a, const synth::sccl::Synthesizer& synth,
                 const synth::sccl::SearchResult& result, const std::vector<FrontierPoint>& points) {
  ordered_json j;
  j["topology"] = a.topology;
  j["collective"] = std::string(collectiveTypeName(synth.collective()));
  j["method"] = "smt";
  j["solver"] = a.solver;
  j["bound"] = {{"steps", synth.bound().stepsLowerBound},
                {"rounds_per_chunk", topo::toString(synth.bound().roundsPerChunkLowerBound)}};
  ordered_json frontier = ordered_json::array();
  for (const FrontierPoint& p : points) {
    ordered_json e{{"chunks", p.instance.chunks},
                   {"steps", p.instance.steps},
                   {"rounds", p.instance.rounds},
                   {"rounds_per_chunk", topo::toString(p.roundsPerChunk)},
                   {"form", std::string(callFormName(p.form))}};
    if (!p.instance.substituteFor.empty()) e["substitute_for"] = p.instance.substituteFor;
    e["file"] = p.file.empty() ? ordered_json(nullptr) : ordered_json(p.file);
    e["verified"] = p.emitted.verified();
    if (p.cheapest) {
      e["cheapest_from_bytes"] = p.cheapest->low;
      e["cheapest_below_bytes"] = p.cheapest->high ? ordered_json(*p.cheapest->high) : ordered_json(nullptr);
    }
    synth::deploy::addDeploymentFields(e, p.deployment);
    frontier.push_back(e);
  }
  j["frontier"] = frontier;
  ordered_json instances = ordered_json::array();
  for (const InstanceResult& r : synth.history()) {
    ordered_json e{{"chunks", r.chunks},
                   {"steps", r.steps},
                   {"rounds", r.rounds},
                   {"result", std::string(synth::sccl::verdictName(r.verdict))},
                   {"seconds", r.seconds}};
    if (!r.note.empty()) e["note"] = r.note;
    instances.push_back(e);
  }
  j["instances"] = instances;
  j["complete"] = result.complete;
  if (!result.note.empty()) j["note"] = result.note;
  return jsonDocument(j);
}

int exitCode(const synth::sccl::SearchResult& result, const std::vector<FrontierPoint>& points,
             const synth::sccl::Synthesizer& synth) {
  for (const FrontierPoint& p : points)
    if (!p.emitted.verified()) return kExitInternalError;
  if (!result.complete) return kExitInconclusive;
  if (points.empty()) return synth.history().empty() ? kExitInconclusive : kExitViolation;
  return kExitVerified;
}

int runSmtSynthesis(const SynthArguments& a, const topo::Topology& topology, const Request& request) {
  auto solver = smt::parseSolverKind(a.solver);
  if (!solver) throw std::invalid_argument("unknown solver '" + a.solver + "'");
  auto protocol = ir::parseProtocol(a.protocol);
  if (!protocol) throw std::invalid_argument("unknown protocol '" + a.protocol + "'");
  synth::sccl::SynthOptions options;
  options.solver = *solver;
  options.instanceTimeoutSeconds = a.instanceTimeoutSeconds;
  options.totalTimeoutSeconds = a.timeoutSeconds;
  options.progress = [](const InstanceResult& r) {
    std::cerr << fmt::format("ccforge synth: {} {} {:.2f} s{}\n", triple(r.chunks, r.steps, r.rounds),
                             synth::sccl::verdictName(r.verdict), r.seconds, r.note.empty() ? "" : " (" + r.note + ")");
  };
  if (progress::enabled())
    options.starting = [](int32_t c, int32_t s, std::optional<int32_t> r) {
      progress::phase(fmt::format("solving instance {}", r ? triple(c, s, *r) : fmt::format("({},{},free)", c, s)));
    };
  progress::phase("computing the lower bounds on " + topology.name);
  synth::sccl::Synthesizer synth(topology, request.collective, request.root, options);
  synth::sccl::SearchResult result = search(synth, a);
  if (!(a.chunks && a.steps && a.rounds)) {
    progress::phase("looking for power-of-two substitutes");
    synth::sccl::addPowerOfTwoSubstitutes(synth, result, {a.maxChunks, a.maxSteps});
  }
  progress::phase(fmt::format("compiling and verifying {} frontier program{}", result.frontier.size(),
                              result.frontier.size() == 1 ? "" : "s"));

  const synth::sccl::CostModel cost = synth::sccl::costModel(topology, request.collective);
  const std::vector<FrontierPoint> points =
      synth::sccl::frontierFiles(synth, result.frontier, cost,
                                 {.protocol = *protocol,
                                  .outputDirectory = a.outputDir,
                                  .programPrefix = fmt::format("sccl-{}-{}", a.collective, topology.name),
                                  .filePrefix = synthFilePrefix(a.topology, a.collective),
                                  .ncclMargin = ncclMargin(a)});
  for (const FrontierPoint& p : points) {
    if (p.emitted.verified()) continue;
    const InstanceResult& r = p.instance;
    std::cerr << "ccforge synth: internal error: " << triple(r.chunks, r.steps, r.rounds) << " does not "
              << (p.emitted.error.empty() ? "verify" : "compile: " + p.emitted.error) << "\n";
    if (p.emitted.error.empty()) verify::writeText(std::cerr, {p.emitted.report}, verify::RunInfo{"msccl-executor", 6});
  }
  std::vector<NotWritten> notWritten;
  for (const FrontierPoint& p : points)
    if (p.file.empty())
      notWritten.push_back(
          {fmt::format("(C,S,R) = {} {}", triple(p.instance.chunks, p.instance.steps, p.instance.rounds),
                       callFormName(p.form)),
           p.deployment.notWritten});
  const auto written = static_cast<size_t>(
      std::count_if(points.begin(), points.end(), [](const FrontierPoint& p) { return !p.file.empty(); }));
  const std::vector<std::string> warnings =
      nothingWrittenWarnings(a.outputDir, written, notWritten,
                             result.complete ? "no schedule exists within the search's limits"
                                             : "the search found no schedule: " + result.note);
  progress::done();
  printWarnings(std::cerr, warnings);
  const std::string report = withOutputSummary(json(a, synth, result, points), a.outputDir, written, warnings);
  if (!a.outputDir.empty()) writeSynthIndex(a.outputDir, a.topology, a.collective, report);
  std::cout << (a.format == "json" ? report : text(a, synth, result, points, cost)) << std::flush;
  const auto deployable = std::count_if(points.begin(), points.end(),
                                        [](const FrontierPoint& p) { return p.deployment.window.has_value(); });
  if (a.outputDir.empty() && deployable > 0)
    std::cerr << "ccforge synth: nothing was written (no -o); pass -o DIR to write the " << deployable
              << " deployable program" << (deployable == 1 ? "" : "s") << "\n";
  return exitCode(result, points, synth);
}

// -o DIR is checked before any search: it must be (or become) a writable directory. A missing
// one is created to prove it can be and removed again, so that a search killed midway leaves no
// empty directory behind; the first file written creates it for good.
void checkOutputDirectory(const std::string& dir) {
  if (dir.empty()) return;
  std::error_code ec;
  if (std::filesystem::exists(dir, ec) && !std::filesystem::is_directory(dir, ec))
    throw OutputError("-o " + dir + ": it exists and is not a directory (synth -o names a directory)");
  std::filesystem::path firstMissing;
  for (std::filesystem::path p = std::filesystem::absolute(dir, ec); !p.empty() && !std::filesystem::exists(p, ec);
       p = p.parent_path()) {
    firstMissing = p;
    if (p == p.parent_path()) break;
  }
  std::filesystem::create_directories(dir, ec);
  if (ec) throw OutputError("-o " + dir + ": cannot create the directory: " + ec.message());
  const bool writable = ::access(dir.c_str(), W_OK) == 0;
  const int accessErrno = errno;
  if (!firstMissing.empty()) std::filesystem::remove_all(firstMissing, ec);
  if (!writable) throw OutputError("-o " + dir + ": cannot write into the directory: " + std::strerror(accessErrno));
}

int runSynth(const SynthArguments& a) {
  progress::start("synth");
  const Request request = parseRequest(a.collective);
  progress::phase("loading topology " + a.topology);
  topo::Topology topology = topo::loadTopology(a.topology);
  const bool trees = a.method == "trees" || (a.method == "auto" && topology.boxCount() > 1);
  const auto gpus = static_cast<int32_t>(topology.gpus().size());
  const int32_t most = trees ? limits::kMaxTreeSynthGpus : limits::kMaxSmtSynthGpus;
  if (gpus > most)
    throw LimitExceeded(
        fmt::format("topology {} has {} GPUs; the {} method synthesizes for at most {} "
                    "(ccforge's limit, docs/limits.md)",
                    topology.name, gpus, trees ? "tree" : "SMT", most));
  for (const auto& [name, value] : {std::pair{"--chunks", a.chunks}, {"--steps", a.steps}, {"--rounds", a.rounds}})
    if (value && (*value < 1 || *value > limits::kMaxSmtInstanceSize))
      throw std::invalid_argument(fmt::format("{} {} is out of range: an instance has 1 to {} (docs/limits.md)", name,
                                              *value, limits::kMaxSmtInstanceSize));
  if (!trees && a.chunks && a.steps && a.rounds &&
      int64_t{*a.chunks} * std::max(*a.rounds, *a.steps) * gpus > limits::kMaxSmtInstanceWork)
    throw LimitExceeded(
        fmt::format("instance (C,S,R) = ({},{},{}) on {} GPUs: C x R x GPUs = {} is over ccforge's "
                    "instance limit of {} (docs/limits.md)",
                    *a.chunks, *a.steps, *a.rounds, gpus, int64_t{*a.chunks} * std::max(*a.rounds, *a.steps) * gpus,
                    limits::kMaxSmtInstanceWork));
  checkOutputDirectory(a.outputDir);
  if (trees) return runTreeSynthesis(a);
  return runSmtSynthesis(a, topology, request);
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
         "(the same on several boxes with second network entries, for large sizes), or auto (packing; "
         "hierarchical on multi-box machines; both ring compositions for allgather where the boxes have rings)")
      ->check(CLI::IsMember({"auto", "trees", "hierarchical", "rings", "rings-split"}))
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
