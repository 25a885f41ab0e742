// `ccforge compile NAME [key=value ...]`: compiles a library algorithm to MSCCL-IR and, unless
// --no-verify, runs `ccforge verify` on the result before writing it (the driver's
// compile-then-verify): a file that fails is not written (docs/compiler.md).
// `ccforge compile SCRIPT.py [ARGS...]`: the same for the program an msccl-tools-style MSCCLang
// script builds (docs/python.md); its errors point at the script's lines.
#include <fmt/format.h>

#include <iostream>

#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "cli/progress.hpp"
#include "cli/script_cli.hpp"
#include "cli/verdict_exit_code.hpp"
#include "codegen/compile_error.hpp"
#include "driver/compile_and_verify.hpp"
#include "fused_library.hpp"
#include "library.hpp"
#include "dsl/dsl_error.hpp"
#include "ir/names.hpp"
#include "base/output_file.hpp"
#include "ir/writer.hpp"
#include "verify/report_writers.hpp"
#include "verify/verifier.hpp"

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
  python::ScriptLimits scriptLimits;
};

// One program to compile: a library algorithm's, or one XML() call of a script.
struct CompileJob {
  const dsl::Program* program = nullptr;
  std::string title;        // for the summary line
  std::string errorPrefix;  // where compile errors are reported
  std::string output;       // "" for standard output
};

// Standard output for "", else the file; false (reported) when the file cannot be written.
bool writeProgram(const ir::Algorithm& algo, const std::string& output) {
  if (output.empty()) {
    ir::writeAlgorithm(std::cout, algo);
    return true;
  }
  try {
    base::writeOutputFile(output, [&](const base::TextSink& sink) { ir::writeXml(algo, sink); });
    return true;
  } catch (const base::OutputError& e) {
    std::cerr << "ccforge compile: " << e.what() << "\n";
    return false;
  }
}

// Fused operators (docs/fused.md) are generated as IR directly and verified for ccforge-fused.
int runFused(const CompileArguments& args) {
  ir::Algorithm algo;
  try {
    algorithms::FusedParameters p = algorithms::fusedParameters(args.algorithm, args.settings);
    if (!args.protocol.empty()) p.protocol = *ir::parseProtocol(args.protocol);
    algo = algorithms::fusedProgram(p);
  } catch (const std::invalid_argument& e) {
    std::cerr << "ccforge compile: " << e.what() << "\n";
    return kExitUsage;
  }
  const std::string source = args.output.empty() ? "<stdout>" : args.output;
  std::string verdict = "not verified (--no-verify)";
  if (!args.noVerify) {
    verify::Options options;
    options.profile = semantics::fusedProfile();
    if (args.maxTbs) options.maxCoResidentThreadBlocks = *args.maxTbs;
    const verify::FileReport report = verify::verifyAlgorithm(algo, source, options, {});
    const int code = exitCodeOf(report.verdict);
    if (code != kExitVerified) {
      std::cerr << "ccforge compile: " << args.algorithm
                << ": the fused program does not verify; nothing was written\n";
      verify::writeText(std::cerr, {report}, verify::RunInfo{options.profile.name, code});
      return code;
    }
    verdict = "verified for " + options.profile.name;
  }
  if (!writeProgram(algo, args.output)) return kExitUsage;
  std::cerr << fmt::format("ccforge compile: {}: {} ranks, {} steps; {}\n", algo.name, algo.ngpus, algo.stepCount(),
                           verdict);
  return kExitVerified;
}

int runCompile(const CompileArguments& args) {
  if (algorithms::findFused(args.algorithm)) return runFused(args);
  std::optional<ir::Protocol> protocol;
  if (!args.protocol.empty()) protocol = ir::parseProtocol(args.protocol);
  std::optional<algorithms::Instance> instance;
  std::vector<python::ScriptProgram> scripts;
  std::vector<CompileJob> jobs;
  std::string profile = args.profile;
  if (python::isScript(args.algorithm)) {
    if (protocol) {
      std::cerr << "ccforge compile: --protocol is for library algorithms; a script sets its own "
                   "(MSCCLProgram(protocol=...))\n";
      return kExitUsage;
    }
    auto outcome = programsOfScript("ccforge compile", args.algorithm, args.settings, args.scriptLimits, false);
    if (const int* code = std::get_if<int>(&outcome)) return *code;
    scripts = std::get<std::vector<python::ScriptProgram>>(std::move(outcome));
    for (size_t i = 0; i < scripts.size(); ++i) {
      std::string title = scripts[i].title;
      if (scripts.size() > 1)
        title += " (program " + std::to_string(i + 1) + " of " + std::to_string(scripts.size()) + ")";
      jobs.push_back(CompileJob{scripts[i].program.get(), title, python::scriptLocation(scripts[i], args.algorithm),
                                python::nthOutput(args.output, i)});
    }
    if (profile.empty())
      profile = scripts.empty() ? "msccl-legacy" : python::defaultScriptProfile(*scripts.front().program);
  } else {
    try {
      if (const algorithms::LibraryEntry* entry = algorithms::findAlgorithm(args.algorithm)) {
        semantics::RuntimeProfile fits = *semantics::profileByName(profile.empty() ? entry->defaultTarget : profile);
        if (args.maxTbs) fits.maxCoResidentThreadBlocks = *args.maxTbs;
        algorithms::requireFits(*entry, algorithms::resolveArguments(*entry, args.settings), fits);
      }
      instance.emplace(algorithms::instantiate(args.algorithm, args.settings, protocol));
    } catch (const std::invalid_argument& e) {
      std::cerr << "ccforge compile: " << e.what() << "\n";
      return kExitUsage;
    } catch (const dsl::DslError& e) {
      std::cerr << e.what() << "\n";  // FILE:LINE:COLUMN: error: ... (the algorithm's source)
      return kExitViolation;
    }
    if (profile.empty()) profile = instance->entry->defaultTarget;
    std::string title = args.algorithm;
    for (const std::string& s : args.settings) title += " " + s;
    jobs.push_back(CompileJob{&instance->program, title, "ccforge compile: " + title + ": ", args.output});
  }
  const driver::Target target{*semantics::profileByName(profile), args.maxTbs};

  // Every program is compiled and verified before any file is written.
  progress::start("compile");
  std::vector<codegen::Compiled> compiled;
  for (const CompileJob& job : jobs) {
    const std::string source = job.output.empty() ? "<stdout>" : job.output;
    driver::CompiledAndVerified result;
    try {
      progress::phase(args.noVerify ? "compiling " + job.title : "compiling and verifying " + job.title);
      if (args.noVerify)
        result.compiled = driver::compileFor(*job.program, target);
      else
        result = driver::compileAndVerify(*job.program, target, source);
    } catch (const codegen::CompileError& e) {
      std::cerr << job.errorPrefix << e.what() << "\n";
      return kExitViolation;
    }
    if (!args.noVerify) {
      const int code = exitCodeOf(result.report.verdict);
      if (code != kExitVerified) {
        std::cerr << "ccforge compile: " << job.title
                  << ": the compiled program does not verify; nothing was written\n";
        verify::writeText(std::cerr, {result.report}, verify::RunInfo{profile, code});
        return code;
      }
    }
    compiled.push_back(std::move(result.compiled));
  }
  progress::done();
  const std::string verdict = args.noVerify ? "not verified (--no-verify)" : "verified for " + profile;
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (!writeProgram(compiled[i].algorithm, jobs[i].output)) return kExitUsage;
    const codegen::CompileStats& st = compiled[i].stats;
    std::cerr << fmt::format("ccforge compile: {}: {} ranks, {} channels, {} thread blocks, {} steps ({} nops); {}{}\n",
                             jobs[i].title, compiled[i].algorithm.ngpus, st.channels, st.threadBlocks, st.steps,
                             st.nops, verdict,
                             jobs.size() > 1 && !jobs[i].output.empty() ? "; written to " + jobs[i].output : "");
    for (const std::string& note : compiled[i].notes) std::cerr << "note: " << note << "\n";
  }
  return kExitVerified;
}

}  // namespace

void registerCompileCommand(CLI::App& app, CommandContext& context) {
  auto args = std::make_shared<CompileArguments>();
  CLI::App* cmd = app.add_subcommand(
      "compile",
      "Compile a library algorithm (ccforge list) to MSCCL-IR and verify it (exit 0 written and verified, "
      "10 the program is wrong or cannot meet the runtime's limits, 1 usage)");
  cmd->add_option("algorithm", args->algorithm,
                  "library algorithm, e.g. two-step-alltoall, or an MSCCLang script SCRIPT.py (docs/python.md)")
      ->required();
  cmd->add_option("settings", args->settings,
                  "parameters as key=value, e.g. nodes=2 gpus=4; for a script, its own arguments");
  // A script takes --protocol itself (msccl-tools' scripts do): only the library's is ours.
  cmd->add_option_group(kLibraryOnlyOptions)
      ->add_option("--protocol", args->protocol, "protocol (default: the algorithm's)")
      ->check(CLI::IsMember({"Simple", "LL", "LL128"}));
  cmd->add_option(
         "--profile", args->profile,
         "runtime whose limits and header apply (default: msccl-executor; msccl-legacy for custom collectives)")
      ->check(CLI::IsMember({"msccl-executor", "msccl-legacy"}));
  cmd->add_option("--max-tbs", args->maxTbs, "thread blocks per rank that can be resident at once (as for verify)")
      ->check(CLI::Range(1, 1 << 20));
  cmd->add_option("-o,--output", args->output, "write the IR to this file instead of standard output");
  cmd->add_flag("--no-verify", args->noVerify, "write the IR without running ccforge verify on it");
  addScriptLimitOptions(*cmd, args->scriptLimits);
  cmd->callback([args, &context] { context.exitCode = runCompile(*args); });
}

}  // namespace ccforge::cli
