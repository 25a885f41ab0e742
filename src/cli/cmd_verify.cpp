// `ccforge verify FILE... | DIR`: the CI gate for MSCCL-IR programs (docs/verify.md).
#include <fmt/format.h>

#include <fstream>
#include <iostream>

#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "cli/verdict_exit_code.hpp"
#include "verify/report_writers.hpp"
#include "verify/verifier.hpp"

namespace ccforge::cli {
namespace {

struct VerifyArguments {
  std::vector<std::string> paths;
  std::string profile = "msccl-executor";
  std::optional<int32_t> maxTbs;
  std::optional<int32_t> slots;
  std::optional<std::string> collective;
  std::string format = "text";
  std::string output;
  uint64_t maxInputBytes = kDefaultMaxInputBytes;
};

int runVerify(const VerifyArguments& args) {
  verify::Options options;
  options.profile = *verify::profileByName(args.profile);
  options.maxCoResidentThreadBlocks = args.maxTbs;
  options.slots = args.slots;
  options.collective = args.collective;
  options.maxInputBytes = args.maxInputBytes;
  std::vector<verify::FileReport> reports = verify::verifyPaths(args.paths, options);
  verify::RunInfo run{options.profile.name, exitCodeOf(verify::combinedVerdict(reports))};

  std::ofstream file;
  if (!args.output.empty()) {
    file.open(args.output);
    if (!file) {
      std::cerr << "ccforge verify: cannot write " << args.output << "\n";
      return kExitUsage;
    }
  }
  std::ostream& out = args.output.empty() ? std::cout : file;
  switch (*verify::parseReportFormat(args.format)) {
    case verify::ReportFormat::Text: verify::writeText(out, reports, run); break;
    case verify::ReportFormat::Json: verify::writeJson(out, reports, run); break;
    case verify::ReportFormat::Sarif: verify::writeSarif(out, reports, run); break;
  }
  out.flush();
  if (!out) {
    std::cerr << "ccforge verify: writing the report failed\n";
    return kExitInternalError;
  }
  return run.exitCode;
}

}  // namespace

void registerVerifyCommand(CLI::App& app, CommandContext& context) {
  auto args = std::make_shared<VerifyArguments>();
  CLI::App* cmd = app.add_subcommand("verify", "Check MSCCL-IR programs: runtime limits, connections, races, "
                                               "postcondition and deadlock freedom (exit 0 verified, 10 violation, "
                                               "5 inconclusive, 2 unreadable input, 1 usage, 6 internal error)");
  cmd->add_option("paths", args->paths, "MSCCL-IR files (.xml, .xml.gz) or algorithm directories")->required();
  cmd->add_option("--profile", args->profile, "runtime whose limits apply")
      ->check(CLI::IsMember({"msccl-executor", "msccl-legacy"}))
      ->capture_default_str();
  cmd->add_option("--max-tbs", args->maxTbs,
                  "thread blocks per rank that can be resident at once (default: 108 executor, 216 legacy)")
      ->check(CLI::Range(1, 1 << 20));
  cmd->add_option("--slots", args->slots,
                  "transfers in flight per connection for the deadlock check (default: Simple 2, LL/LL128 8)")
      ->check(CLI::Range(1, 1024));
  cmd->add_option("--collective", args->collective,
                  "postcondition to check: NAME, NAME:ROOT (e.g. broadcast:2, alltonext) or a collective spec file");
  cmd->add_option("--format", args->format, "report format")
      ->check(CLI::IsMember({"text", "json", "sarif"}))
      ->capture_default_str();
  cmd->add_option("-o,--output", args->output, "write the report to this file instead of standard output");
  cmd->add_option("--max-input-size", args->maxInputBytes, "largest input accepted, after gzip inflation (e.g. 2GB)")
      ->transform(CLI::AsSizeValue(false))
      ->capture_default_str();
  cmd->callback([args, &context] { context.exitCode = runVerify(*args); });
}

}  // namespace ccforge::cli
