// `ccforge compile NAME [key=value ...]`: compiles a library algorithm to MSCCL-IR and, unless
// --no-verify, runs `ccforge verify` on the result before writing it (the driver's
// compile-then-verify): a file that fails is not written (docs/compiler.md).
#include <fmt/format.h>

#include <iostream>

#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "cli/verdict_exit_code.hpp"
#include "codegen/compile_error.hpp"
#include "driver/compile_and_verify.hpp"
#include "library.hpp"
#include "dsl/dsl_error.hpp"
#include "ir/names.hpp"
#include "ir/output_file.hpp"
#include "ir/writer.hpp"
#include "verify/report_writers.hpp"

namespace ccforge::cli {
namespace {

struct CompileArguments {
  std::string algorithm;
  std::vector<std::string> settings;
  std::string protocol;
  std::string profile;
  std::string output;
  std::optional<int32_t> maxTbs;
  bool noVerify = false;
};

int runCompile(const CompileArguments& args) {
  std::optional<ir::Protocol> protocol;
  if (!args.protocol.empty()) protocol = ir::parseProtocol(args.protocol);
  std::optional<algorithms::Instance> instance;
  try {
    if (const algorithms::LibraryEntry* entry = algorithms::findAlgorithm(args.algorithm)) {
      const std::string profileName = args.profile.empty() ? entry->defaultTarget : args.profile;
      algorithms::requireFits(*entry, algorithms::resolveArguments(*entry, args.settings), *profileByName(profileName));
    }
    instance.emplace(algorithms::instantiate(args.algorithm, args.settings, protocol));
  } catch (const std::invalid_argument& e) {
    std::cerr << "ccforge compile: " << e.what() << "\n";
    return kExitUsage;
  } catch (const dsl::DslError& e) {
    std::cerr << "ccforge compile: " << args.algorithm << ": " << e.what() << "\n";
    return kExitViolation;
  }
  const std::string profile = args.profile.empty() ? instance->entry->defaultTarget : args.profile;
  const driver::Target target{*profileByName(profile), args.maxTbs};
  std::string title = args.algorithm;
  for (const std::string& s : args.settings) title += " " + s;
  const std::string source = args.output.empty() ? "<stdout>" : args.output;

  driver::CompiledAndVerified result;
  try {
    if (args.noVerify)
      result.compiled = driver::compileFor(instance->program, target);
    else
      result = driver::compileAndVerify(instance->program, target, source);
  } catch (const codegen::CompileError& e) {
    std::cerr << "ccforge compile: " << title << ": " << e.what() << "\n";
    return kExitViolation;
  }
  std::string verdict = "not verified (--no-verify)";
  if (!args.noVerify) {
    const int code = exitCodeOf(result.report.verdict);
    if (code != kExitVerified) {
      std::cerr << "ccforge compile: " << title << ": the compiled program does not verify; nothing was written\n";
      verify::writeText(std::cerr, {result.report}, verify::RunInfo{profile, code});
      return code;
    }
    verdict = "verified for " + profile;
  }

  const codegen::Compiled& compiled = result.compiled;
  const std::string xml = ir::toXml(compiled.algorithm);
  if (args.output.empty()) {
    std::cout << xml;
  } else {
    try {
      writeOutputFile(args.output, xml);
    } catch (const OutputError& e) {
      std::cerr << "ccforge compile: " << e.what() << "\n";
      return kExitUsage;
    }
  }
  const codegen::CompileStats& st = compiled.stats;
  std::cerr << fmt::format("ccforge compile: {}: {} ranks, {} channels, {} thread blocks, {} steps ({} nops); {}\n",
                           title, compiled.algorithm.ngpus, st.channels, st.threadBlocks, st.steps, st.nops, verdict);
  for (const std::string& note : compiled.notes) std::cerr << "note: " << note << "\n";
  return kExitVerified;
}

}  // namespace

void registerCompileCommand(CLI::App& app, CommandContext& context) {
  auto args = std::make_shared<CompileArguments>();
  CLI::App* cmd = app.add_subcommand(
      "compile", "Compile a library algorithm (ccforge list) to MSCCL-IR and verify it (exit 0 written and verified, "
                 "10 the program is wrong or cannot meet the runtime's limits, 1 usage)");
  cmd->add_option("algorithm", args->algorithm, "library algorithm, e.g. two-step-alltoall")->required();
  cmd->add_option("settings", args->settings, "parameters as key=value, e.g. nodes=2 gpus=4");
  cmd->add_option("--protocol", args->protocol, "protocol (default: the algorithm's)")
      ->check(CLI::IsMember({"Simple", "LL", "LL128"}));
  cmd->add_option("--profile", args->profile,
                  "runtime whose limits and header apply (default: msccl-executor; msccl-legacy for custom collectives)")
      ->check(CLI::IsMember({"msccl-executor", "msccl-legacy"}));
  cmd->add_option("--max-tbs", args->maxTbs, "thread blocks per rank that can be resident at once (as for verify)")
      ->check(CLI::Range(1, 1 << 20));
  cmd->add_option("-o,--output", args->output, "write the IR to this file instead of standard output");
  cmd->add_flag("--no-verify", args->noVerify, "write the IR without running ccforge verify on it");
  cmd->callback([args, &context] { context.exitCode = runCompile(*args); });
}

}  // namespace ccforge::cli
