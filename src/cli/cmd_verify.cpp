// `ccforge verify FILE... | DIR`: the CI gate for MSCCL-IR programs (docs/verify.md).
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>

#include "cli/commands.hpp"
#include "cli/option_checks.hpp"
#include "cli/exit_codes.hpp"
#include "cli/progress.hpp"
#include "cli/topology_cli.hpp"
#include "cli/verdict_exit_code.hpp"
#include "driver/machine_boxes.hpp"
#include "base/input_error.hpp"
#include "base/limits.hpp"
#include "base/output_file.hpp"
#include "topology/spec_reader.hpp"
#include "verify/baseline.hpp"
#include "verify/collective_resolution.hpp"
#include "verify/report_writers.hpp"
#include "verify/rule_config.hpp"
#include "verify/verifier.hpp"

namespace ccforge::cli {
namespace {

struct VerifyArguments {
  std::vector<std::string> paths;
  std::string profile;  // empty: each file's header decides
  std::optional<int32_t> maxTbs;
  std::optional<int32_t> slots;
  std::optional<int32_t> gpusPerBox;
  std::string topology;  // empty: --gpus-per-box or an unknown layout
  std::optional<std::string> collective;
  std::string format = "text";
  bool quiet = false;
  std::string output;
  uint64_t maxInputBytes = base::kDefaultMaxInputBytes;
  std::string engine = "sim";
  std::string solver = "z3";
  double smtTimeoutSeconds = 60;
  uint64_t smtRlimit = 0;
  std::string dumpSmt;
  std::string witnessDir;
  std::vector<std::string> disable, warn, error;  // rule ids or groups
  std::string config;                             // empty: found from the paths upward
  bool noConfig = false;
  std::string baseline;
  std::string writeBaseline;
};

// The configuration file of the run: --config, or the one found from the paths upward, which
// must be the same for every path (verify paths under different ones separately).
std::optional<std::filesystem::path> configOf(const VerifyArguments& args) {
  if (!args.config.empty()) return args.config;
  if (args.noConfig) return std::nullopt;
  std::optional<std::filesystem::path> found;
  for (const std::string& p : args.paths) {
    const std::optional<std::filesystem::path> here = verify::findRuleConfig(p);
    if (p != args.paths.front() && here != found)
      throw std::invalid_argument("the paths fall under different configuration files (" +
                                  (found ? found->string() : "none") + ", " + (here ? here->string() : "none") +
                                  "); verify them separately, or name one with --config");
    found = here;
  }
  return found;
}

// Rule control from the configuration file, the command line and the baseline; false (with a
// message) when one of them is wrong, `exitCode` saying how.
bool applyRuleControl(const VerifyArguments& args, verify::Options& options, int& exitCode) {
  verify::RuleOverrides commandLine;
  std::optional<std::filesystem::path> baseline;
  if (!args.baseline.empty()) baseline = args.baseline;
  try {
    for (const auto& [patterns, action] :
         {std::pair{&args.disable, verify::RuleAction::Disable}, std::pair{&args.warn, verify::RuleAction::Warn},
          std::pair{&args.error, verify::RuleAction::Error}})
      for (const std::string& pattern : *patterns) commandLine.set(pattern, action);
    if (const std::optional<std::filesystem::path> config = configOf(args)) {
      verify::RuleConfig rules = verify::readRuleConfig(*config);
      options.ruleOverrides = std::move(rules.overrides);
      if (!baseline) baseline = rules.baseline;
    }
    options.ruleOverrides.overrideWith(commandLine);
    if (baseline) options.baseline = std::make_shared<const verify::Baseline>(verify::Baseline::read(*baseline));
  } catch (const base::InputError& e) {
    std::cerr << e.diagnostic() << "\n";
    exitCode = kExitMalformedInput;
    return false;
  } catch (const std::invalid_argument& e) {
    std::cerr << "ccforge verify: " << e.what() << "\n";
    exitCode = kExitUsage;
    return false;
  }
  return true;
}

// One JSON file per SMT witness: DIR/<file with / as _>.witness<N>.json.
bool writeWitnesses(const std::string& dir, const std::vector<verify::FileReport>& reports) {
  for (const verify::FileReport& r : reports) {
    if (!r.smt) continue;
    std::string stem = r.file;
    std::replace(stem.begin(), stem.end(), '/', '_');
    for (size_t n = 0; n < r.smt->witnesses.size(); ++n) {
      const std::string path = (std::filesystem::path(dir) / fmt::format("{}.witness{}.json", stem, n + 1)).string();
      std::ostringstream out;
      verify::writeWitness(out, r.file, r.smt->witnesses[n]);
      try {
        base::writeOutputFile(path, out.str());
      } catch (const base::OutputError& e) {
        std::cerr << "ccforge verify: " << e.what() << "\n";
        return false;
      }
    }
  }
  return true;
}

// Creates the directory an option names; false (with a message) if it cannot.
bool prepareDirectory(const std::string& option, const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || !std::filesystem::is_directory(dir)) {
    std::cerr << "ccforge verify: " << option << " " << dir << ": cannot create the directory"
              << (ec ? ": " + ec.message() : "") << "\n";
    return false;
  }
  return true;
}

int runVerify(const VerifyArguments& args) {
  if (args.maxInputBytes == 0 || args.maxInputBytes > base::limits::kMaxInputBytesCeiling) {
    std::cerr << "ccforge verify: --max-input-size must be between 1 byte and " << base::limits::kMaxInputBytesCeiling
              << " bytes (1 TiB; docs/limits.md)\n";
    return kExitUsage;
  }
  for (const std::string& output : {args.output, args.writeBaseline}) {
    if (output.empty()) continue;
    try {
      base::checkOutputPath(output);
    } catch (const base::OutputError& e) {
      std::cerr << "ccforge verify: " << e.what() << "\n";
      return kExitUsage;
    }
  }
  if (args.collective) {
    try {
      verify::checkCollectiveOption(*args.collective);
    } catch (const base::InputError& e) {
      std::cerr << e.diagnostic() << "\n";
      return kExitMalformedInput;
    } catch (const std::invalid_argument& e) {
      std::cerr << "ccforge verify: " << e.what() << "\n";
      return kExitUsage;
    }
  }
  verify::Options options;
  if (int exitCode = 0; !applyRuleControl(args, options, exitCode)) return exitCode;
  // A baseline lists every finding, not only the ones a report shows per rule.
  if (!args.writeBaseline.empty()) options.maxReportedPerRule = std::numeric_limits<size_t>::max();
  options.profileFromHeader = args.profile.empty();
  if (!options.profileFromHeader) options.profile = *semantics::profileByName(args.profile);
  options.maxCoResidentThreadBlocks = args.maxTbs;
  options.slots = args.slots;
  if (args.gpusPerBox) options.boxes = verify::BoxLayout::consecutive(*args.gpusPerBox);
  if (!args.topology.empty()) {
    const int loaded = runGuarded("verify --topology", [&] {
      options.boxes = driver::boxLayoutOf(topo::loadTopology(args.topology));
      return kExitVerified;
    });
    if (loaded != kExitVerified) return loaded;
  }
  options.collective = args.collective;
  options.maxInputBytes = args.maxInputBytes;
  options.engine = args.engine == "smt"    ? verify::Engine::Smt
                   : args.engine == "both" ? verify::Engine::Both
                                           : verify::Engine::Sim;
  options.smt.solvers = args.solver == "cvc5"   ? verify::SmtSolvers::Cvc5
                        : args.solver == "both" ? verify::SmtSolvers::Both
                                                : verify::SmtSolvers::Z3;
  options.smt.timeoutMs = static_cast<uint32_t>(std::max(1.0, args.smtTimeoutSeconds * 1000));
  options.smt.rlimit = args.smtRlimit;
  if (!args.dumpSmt.empty()) {
    if (!prepareDirectory("--dump-smt", args.dumpSmt)) return kExitUsage;
    options.smt.dumpDirectory = args.dumpSmt;
  }
  if (!args.witnessDir.empty() && !prepareDirectory("--witness-dir", args.witnessDir)) return kExitUsage;
  progress::start("verify");
  if (progress::enabled()) options.progress = [](const std::string& phase) { progress::phase(phase); };
  std::vector<verify::FileReport> reports = verify::verifyPaths(args.paths, options);
  progress::done();
  std::string profile = options.profileFromHeader ? verify::commonProfile(reports) : options.profile.name;
  if (profile.empty()) profile = "none";  // no file could be read
  verify::RunInfo run{profile, exitCodeOf(verify::combinedVerdict(reports))};
  run.quiet = args.quiet;

  std::ostringstream text;
  std::ostream& out = args.output.empty() ? std::cout : text;
  switch (*verify::parseReportFormat(args.format)) {
    case verify::ReportFormat::Text: verify::writeText(out, reports, run); break;
    case verify::ReportFormat::Json: verify::writeJson(out, reports, run); break;
    case verify::ReportFormat::Sarif: verify::writeSarif(out, reports, run); break;
  }
  if (args.output.empty()) {
    if (!std::cout.flush()) {
      std::cerr << "ccforge verify: cannot write the report to standard output\n";
      return kExitUsage;
    }
  } else {
    try {
      base::writeOutputFile(args.output, text.str());
    } catch (const base::OutputError& e) {
      std::cerr << "ccforge verify: " << e.what() << "\n";
      return kExitUsage;
    }
  }
  if (!args.witnessDir.empty() && !writeWitnesses(args.witnessDir, reports)) return kExitUsage;
  if (!args.writeBaseline.empty()) {
    try {
      verify::writeBaseline(args.writeBaseline, reports);
    } catch (const base::OutputError& e) {
      std::cerr << "ccforge verify: " << e.what() << "\n";
      return kExitUsage;
    }
  }
  return run.exitCode;
}

}  // namespace

void registerVerifyCommand(CLI::App& app, CommandContext& context) {
  auto args = std::make_shared<VerifyArguments>();
  CLI::App* cmd = app.add_subcommand("verify",
                                     "Check MSCCL-IR programs: runtime limits, connections, races, "
                                     "postcondition and deadlock freedom (exit 0 verified, 10 violation, "
                                     "5 inconclusive, 2 unreadable input, 1 usage, 6 internal error)");
  cmd->add_option("paths", args->paths, "MSCCL-IR files (.xml, .xml.gz) or algorithm directories")->required();
  cmd->add_option("--profile", args->profile,
                  "runtime whose limits apply (default: the one each file's header is written for: msccl-executor "
                  "for an executor header, msccl-legacy for a legacy one; rccl: ROCm/rccl's MSCCL executor)")
      ->check(CLI::IsMember({"msccl-executor", "msccl-legacy", "rccl", "ccforge-fused"}));
  cmd->add_option("--max-tbs", args->maxTbs,
                  fmt::format("thread blocks per rank that can be resident at once (default: {} {}, {} {})",
                              semantics::executorProfile().maxCoResidentThreadBlocks, semantics::executorProfile().name,
                              semantics::legacyProfile().maxCoResidentThreadBlocks, semantics::legacyProfile().name))
      ->check(CLI::Range(1, 1 << 20));
  cmd->add_option("--slots", args->slots,
                  "transfers in flight per connection for the deadlock check (default: Simple 2, LL/LL128 8)")
      ->check(CLI::Range(1, 1024));
  CLI::Option* gpusPerBox =
      cmd->add_option("--gpus-per-box", args->gpusPerBox,
                      "ranks numbered box by box, this many to a box: slot back-pressure orders data only on "
                      "connections inside a box (default: any two ranks may be in different boxes)")
          ->check(CLI::Range(1, base::limits::kMaxProgramRanks));
  cmd->add_option("--topology", args->topology,
                  "catalog name or spec file whose boxes hold the ranks (rank r: the machine's GPU r)")
      ->excludes(gpusPerBox);
  cmd->add_option("--collective", args->collective,
                  "postcondition to check: NAME, NAME:ROOT (e.g. broadcast:2, alltonext) or a collective spec file");
  cmd->add_option("--format", args->format, "report format")
      ->check(CLI::IsMember({"text", "json", "sarif"}))
      ->capture_default_str();
  cmd->add_option("-o,--output", args->output, "write the report to this file instead of standard output");
  cmd->add_flag("-q,--quiet", args->quiet,
                "text report: only the findings, and the verdict of each file that is not verified (nothing for a "
                "verified file)");
  cmd->add_option("--max-input-size", args->maxInputBytes, "largest input accepted, after gzip inflation (e.g. 2GB)")
      ->transform(byteSize())
      ->capture_default_str();
  cmd->add_option("--engine", args->engine,
                  "engine for the deadlock, race and postcondition checks: sim (simulation, fast), smt (Z3/cvc5 "
                  "encodings with witness schedules), both (compared; a disagreement exits 6)")
      ->check(CLI::IsMember({"sim", "smt", "both"}))
      ->capture_default_str();
  cmd->add_option("--solver", args->solver, "SMT solver: z3, cvc5, or both (every query cross-checked)")
      ->check(CLI::IsMember({"z3", "cvc5", "both"}))
      ->capture_default_str();
  cmd->add_option(
         "--smt-timeout", args->smtTimeoutSeconds,
         "wall-clock limit per SMT query and solver, in seconds; a query that hits it is inconclusive (exit 5)")
      ->check(finiteRange(0.001, 86400.0))
      ->capture_default_str();
  cmd->add_option("--smt-rlimit", args->smtRlimit,
                  "deterministic resource limit per SMT query (Z3 rlimit, cvc5 rlimit-per); 0: none")
      ->capture_default_str();
  cmd->add_option("--dump-smt", args->dumpSmt, "write every SMT query as a standalone .smt2 file into this directory");
  cmd->add_option(
      "--disable", args->disable,
      "drop the findings of this rule (an id such as selection.ambiguous, or a group such as selection); repeatable");
  cmd->add_option("--warn", args->warn,
                  "report this rule's findings (id or group) as warnings, which do not fail the verdict; repeatable");
  cmd->add_option("--error", args->error, "report this rule's findings (id or group) as errors; repeatable");
  cmd->add_option("--config", args->config,
                  "read rule control from this file instead of the .ccforge.json found from the paths upward");
  cmd->add_flag("--no-config", args->noConfig, "ignore .ccforge.json files")->excludes("--config");
  cmd->add_option("--baseline", args->baseline,
                  "report the findings this baseline lists as suppressed (instead of the configuration file's)");
  cmd->add_option("--write-baseline", args->writeBaseline,
                  "write every finding of this run, except those suppressed in their file, as a baseline");
  cmd->add_option("--witness-dir", args->witnessDir,
                  "write every SMT witness schedule as a JSON file into this directory");
  cmd->callback([args, &context] { context.exitCode = runVerify(*args); });
}

}  // namespace ccforge::cli
