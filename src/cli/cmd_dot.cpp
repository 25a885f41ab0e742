// `ccforge dot INPUT`: draws a library algorithm (its Chunk DAG, Instruction DAG or compiled
// thread blocks) or any MSCCL-IR file (thread blocks) with Graphviz; highlights the deadlock
// cycle or race pair of a failed verification (docs/dsl-guide.md, "Pictures"). An MSCCLang script
// (`ccforge dot SCRIPT.py [ARGS...]`, docs/python.md) is drawn like a library algorithm.
#include <fmt/format.h>

#include <filesystem>
#include <iostream>
#include <sstream>

#include "cli/commands.hpp"
#include "cli/usage_error.hpp"
#include "cli/exit_codes.hpp"
#include "cli/picture_output.hpp"
#include "cli/script_cli.hpp"
#include "codegen/compile_error.hpp"
#include "codegen/compiler.hpp"
#include "driver/compile_and_verify.hpp"
#include "viz/dot_render.hpp"
#include "viz/dot_views.hpp"
#include "viz/finding_highlights.hpp"
#include "library.hpp"
#include "base/input_error.hpp"
#include "ir/names.hpp"
#include "ir/reader.hpp"
#include "verify/report_reader.hpp"

namespace ccforge::cli {
namespace {

struct DotArguments {
  std::string input;
  std::vector<std::string> settings;
  std::string output;
  std::string view = "threadblocks";
  std::string protocol;
  std::string profile;
  std::optional<int32_t> rank, chunk;
  std::string around;
  int32_t radius = 2;
  size_t maxNodes = 2000;
  std::string highlightReport;
  bool verify = false;
  bool allRanks = false;
  python::ScriptLimits scriptLimits;
};

// The script's own exit code (its error already printed).
struct ScriptExit {
  int code;
};

bool isFile(const std::string& input) {
  if (python::isScript(input)) return false;
  return std::filesystem::exists(input) || input.ends_with(".xml") || input.ends_with(".xml.gz");
}

viz::StepId parseStep(const std::string& text) {
  viz::StepId id;
  char c1 = 0, c2 = 0;
  std::istringstream in(text);
  if (!(in >> id.rank >> c1 >> id.tb >> c2 >> id.step) || c1 != ':' || c2 != ':' || !in.eof())
    throw UsageError("--around takes RANK:TB:STEP, got '" + text + "'");
  return id;
}

int runDot(const DotArguments& args) {
  std::optional<viz::DotFormat> format = viz::DotFormat::Dot;
  if (!args.output.empty() && !(format = viz::formatForPath(args.output)))
    throw UsageError("-o " + args.output + ": the extension must be .dot, .gv, .svg, .png or .pdf");
  const bool file = isFile(args.input);
  if (file && args.view != "threadblocks")
    throw UsageError("an MSCCL-IR file has only the thread-block view (--view " + args.view + " needs a DSL program)");
  if (!args.around.empty() && args.view != "threadblocks")
    throw UsageError("--around names a step, so it needs the thread-block view");

  std::optional<algorithms::Instance> instance;
  std::optional<python::ScriptProgram> script;
  const dsl::Program* program = nullptr;
  ir::Algorithm algo;
  std::string profile = args.profile;
  if (file) {
    if (!args.settings.empty()) throw UsageError("parameters are for library algorithms, not for files");
    algo = ir::readAlgorithmFile(args.input).algorithm;
    if (profile.empty()) profile = semantics::profileForHeader(algo).name;  // as `verify` without --profile
  } else if (python::isScript(args.input)) {
    if (!args.protocol.empty()) throw UsageError("--protocol is for library algorithms; a script sets its own");
    auto outcome = programsOfScript("ccforge dot", args.input, args.settings, args.scriptLimits, true);
    if (const int* code = std::get_if<int>(&outcome)) throw ScriptExit{*code};
    script = std::get<std::vector<python::ScriptProgram>>(std::move(outcome)).back();
    program = script->program.get();
    if (profile.empty()) profile = python::defaultScriptProfile(*program);
  } else {
    std::optional<ir::Protocol> protocol;
    if (!args.protocol.empty()) protocol = ir::parseProtocol(args.protocol);
    try {
      instance.emplace(algorithms::instantiate(args.input, args.settings, protocol));
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
    program = &instance->program;
    if (args.profile.empty()) profile = instance->entry->defaultTarget;
  }
  const semantics::RuntimeProfile target = *semantics::profileByName(profile);

  viz::DotModel model;
  if (args.view == "chunk-dag") {
    model = viz::chunkDagModel(*program);
  } else if (args.view == "instruction-dag") {
    model = viz::instructionDagModel(*program, target);
  } else {
    if (program) algo = codegen::compile(*program, {target}).algorithm;
    model = viz::threadBlockModel(algo);
  }

  std::vector<viz::HighlightGroup> groups;
  if (!args.highlightReport.empty()) groups = viz::highlightsOf(verify::readReportFile(args.highlightReport));
  if (args.verify) {
    const verify::FileReport report = driver::verifyCompiled(
        algo, program ? program->binding().verifyName() : std::nullopt, {target, std::nullopt}, args.input,
        program ? program->binding().refinedCustom(program->refinement()) : std::nullopt);
    std::cerr << "ccforge dot: verify: " << verify::verdictName(report.verdict) << " (" << report.errorCount()
              << " errors; " << profile << " profile)\n";
    auto more = viz::highlightsOf(report.violations);
    groups.insert(groups.end(), more.begin(), more.end());
  }
  if (!groups.empty() && args.view != "threadblocks")
    throw UsageError("highlights name steps, so they need the thread-block view");
  for (const viz::StepId& s : viz::highlight(model, algo, groups))
    std::cerr << fmt::format("ccforge dot: warning: the program has no step rank {} tb {} step {} to highlight\n",
                             s.rank, s.tb, s.step);

  const int32_t ranks = instance ? instance->program.binding().ranks : algo.ngpus;
  if (args.rank && (*args.rank < 0 || *args.rank >= ranks))
    throw UsageError(fmt::format("--rank {}: the program has ranks 0..{}", *args.rank, ranks - 1));
  if (args.chunk && *args.chunk < 0)
    throw UsageError(fmt::format("--chunk {}: chunks are numbered from 0", *args.chunk));
  viz::DotFilter filter;
  filter.rank = args.rank;
  filter.chunk = args.chunk;
  filter.radius = args.radius;
  filter.maxNodes = args.maxNodes;
  if (!args.around.empty()) {
    const viz::StepId id = parseStep(args.around);
    filter.around = viz::nodeOfStep(algo, id);
    if (!filter.around) throw UsageError("--around " + args.around + ": the program has no such step");
  }
  filter = viz::legibleFilter(model, filter, args.allRanks);
  if (!filter.note.empty()) std::cerr << "ccforge dot: note: drawing " << filter.note << "\n";
  const std::string dot = viz::toDot(model, filter);
  if (args.output.empty()) {
    std::cout << dot;
  } else {
    writePictureFile(dot, args.output);
    std::cerr << "ccforge dot: wrote " << args.output << "\n";
  }
  return kExitVerified;
}

int runDotReportingErrors(const DotArguments& args) {
  try {
    return runDot(args);
  } catch (const UsageError& e) {
    std::cerr << "ccforge dot: " << e.what() << "\n";
    return kExitUsage;
  } catch (const ScriptExit& e) {
    return e.code;
  } catch (const viz::DotTooLarge& e) {
    std::cerr << "ccforge dot: " << e.what() << "\n";
    return kExitUsage;
  } catch (const base::InputError& e) {
    std::cerr << e.diagnostic() << "\n";
    return kExitMalformedInput;
  } catch (const std::invalid_argument& e) {
    std::cerr << "ccforge dot: " << e.what() << "\n";
    return kExitUsage;
  } catch (const base::OutputError& e) {
    std::cerr << "ccforge dot: " << e.what() << "\n";
    return kExitUsage;
  } catch (const codegen::CompileError& e) {
    std::cerr << "ccforge dot: " << args.input << ": " << e.what() << "\n";
    return kExitViolation;
  }
}

}  // namespace

void registerDotCommand(CLI::App& app, CommandContext& context) {
  auto args = std::make_shared<DotArguments>();
  CLI::App* cmd = app.add_subcommand(
      "dot",
      "Draw a library algorithm or an MSCCL-IR file with Graphviz (DOT, SVG, PNG or PDF by the extension of -o)");
  cmd->add_option("input", args->input,
                  "an MSCCL-IR file, a library algorithm (ccforge list) or an MSCCLang script SCRIPT.py")
      ->required();
  cmd->add_option("settings", args->settings, "the algorithm's parameters as key=value; a script's own arguments");
  cmd->add_option("-o,--output", args->output, "picture to write (.dot, .gv, .svg, .png, .pdf); DOT on stdout without");
  cmd->add_option("--view", args->view, "what to draw of a library algorithm")
      ->check(CLI::IsMember({"chunk-dag", "instruction-dag", "threadblocks"}))
      ->capture_default_str();
  cmd->add_option_group(kLibraryOnlyOptions)
      ->add_option("--protocol", args->protocol, "protocol of a library algorithm")
      ->check(CLI::IsMember({"Simple", "LL", "LL128"}));
  cmd->add_option(
         "--profile", args->profile,
         "runtime a library algorithm is compiled and verified for (a file: --verify's; default from its header)")
      ->check(CLI::IsMember({"msccl-executor", "msccl-legacy", "ccforge-fused"}));
  cmd->add_option("--rank", args->rank, "only this rank (and the ends of edges leaving it)");
  cmd->add_flag("--all-ranks", args->allRanks,
                "draw every rank even when there are more than 4 (by default such views show one rank, saying which)");
  cmd->add_option("--chunk", args->chunk, "only steps touching this chunk (DSL chunks for the DAG views)");
  cmd->add_option("--around", args->around, "only the neighbourhood of the step RANK:TB:STEP");
  cmd->add_option("--radius", args->radius, "edges from --around to include")
      ->check(CLI::Range(0, 1000))
      ->capture_default_str();
  cmd->add_option("--max-nodes", args->maxNodes, "refuse to draw more nodes than this")->capture_default_str();
  cmd->add_option("--highlight", args->highlightReport,
                  "highlight the deadlock cycles and race pairs of a `ccforge verify --format json` report, or the "
                  "schedule of an SMT witness file (verify --witness-dir)");
  cmd->add_flag("--verify", args->verify, "run ccforge verify on the program and highlight what it finds");
  addScriptLimitOptions(*cmd, args->scriptLimits);
  cmd->callback([args, &context] { context.exitCode = runDotReportingErrors(*args); });
}

}  // namespace ccforge::cli
