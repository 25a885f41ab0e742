// `ccforge plan MODEL`: tensor fusion with per-bucket AllReduce algorithm choice (and, with
// --op-fusion, DisCo's joint operator fusion search) for one data-parallel training step; the
// plan next to every baseline and the lower bound, and a timeline picture (docs/plan.md).
#include <algorithm>
#include <filesystem>
#include <memory>

#include "cli/commands.hpp"
#include "cli/topology_cli.hpp"
#include "base/output_file.hpp"
#include "base/svg_to_png.hpp"
#include "plan/plan_report.hpp"
#include "plan/plan_setting.hpp"
#include "plan/planner.hpp"
#include "plan/pytorch_plan.hpp"
#include "plan/timeline_svg.hpp"

namespace ccforge::cli {
namespace {

struct PlanArguments {
  std::string model;
  std::string network = "10gbe";
  int32_t workers = 8;
  std::string topology;
  bool simulate = false;
  bool ringOnly = false;
  std::vector<std::string> irFiles;
  std::string irDir;
  bool opFusion = false;
  int32_t channels = 1;
  plan::SearchOptions search;
  std::string searchStart = "both";
  std::string svg;
  std::string png;
  std::string emitPytorch;
  double astraCycleNs = 1.0;
  std::string format = "text";
  std::string output;
};

// The timeline as PNG: the SVG rendered by rsvg-convert into a temporary file renamed to `path`.
int writePng(const std::string& path, const std::string& svg) {
  try {
    base::replaceOutputFile(path, [&](const std::filesystem::path& png) {
      const std::filesystem::path svgFile = png.string() + ".svg";
      base::writeOutputFile(svgFile, svg);
      const std::string why = base::svgToPng(svgFile.string(), png.string());
      std::error_code ec;
      std::filesystem::remove(svgFile, ec);
      if (!why.empty()) throw base::OutputError(path + ": no PNG: " + why);
    });
  } catch (const base::OutputError& e) {
    std::cerr << "ccforge plan: " << e.what() << "\n";
    return kExitUsage;
  }
  return kExitVerified;
}

int runPlan(const PlanArguments& args) {
  const plan::PlanSetting c = plan::makePlanSetting({.model = args.model,
                                                     .astraCycleNs = args.astraCycleNs,
                                                     .network = args.network,
                                                     .workers = args.workers,
                                                     .topology = args.topology,
                                                     .simulate = args.simulate,
                                                     .ringOnly = args.ringOnly,
                                                     .irFiles = args.irFiles,
                                                     .irDir = args.irDir,
                                                     .channels = args.channels});
  plan::PlanOptions o;
  o.opFusion = args.opFusion;
  o.channels = args.channels;
  o.search = args.search;
  o.search.alsoStartFromDefault = args.searchStart == "both";
  plan::RooflineEstimator estimator;
  plan::PlanReport r = plan::makePlan(c.workload, c.cost, o, estimator);
  if (!args.svg.empty() || !args.png.empty()) {
    const std::string title = plan::planTimelineTitle(c, r);
    const std::string svg = plan::timelineSvg(c.workload, r.schedule, r.buckets, c.cost, title, r.bounds.lowerBoundUs);
    if (!args.svg.empty())
      if (const int rc = writeOutput("plan", args.svg, svg); rc != kExitVerified) return rc;
    if (!args.png.empty())
      if (const int rc = writePng(args.png, svg); rc != kExitVerified) return rc;
  }
  std::string report = args.format == "json" ? plan::planJson(c, r) : plan::planText(c, r);
  if (!args.emitPytorch.empty()) {
    const plan::DdpSetting ddp = plan::nearestDdpSetting(r.schedule, c.cost, args.channels);
    if (const int rc = writeOutput("plan", args.emitPytorch, plan::pytorchModule(c, r, ddp)); rc != kExitVerified)
      return rc;
    if (args.format != "json") report += plan::pytorchModuleText(args.emitPytorch, r, ddp);
  }
  return writeOutput("plan", args.output, report);
}

}  // namespace

void registerPlanCommand(CLI::App& app, CommandContext& context) {
  auto args = std::make_shared<PlanArguments>();
  CLI::App* cmd = app.add_subcommand(
      "plan",
      "Plan gradient buckets and their AllReduce algorithms for a data-parallel training step (exit 0 ok, "
      "2 unusable input, 1 usage)");
  cmd->add_option("model", args->model,
                  "built-in model (resnet50, vgg19, bert-base, gpt2-small, transformer), a workload JSON file, or an "
                  "ASTRA-sim workload (.txt)")
      ->required();
  cmd->add_option("--network", args->network, "alpha-beta preset: 10gbe, ib56 or nvlink")
      ->check(CLI::IsMember({"10gbe", "ib56", "nvlink"}))
      ->capture_default_str();
  cmd->add_option("--workers", args->workers, "data-parallel workers (with --network)")
      ->check(CLI::Range(2, 4096))
      ->capture_default_str();
  cmd->add_option("--topology", args->topology,
                  "catalog name or spec file: cost buckets with ccforge's simulator on it (workers = its GPUs)");
  cmd->add_flag("--simulate", args->simulate,
                "cost buckets with ccforge's simulator on a switch calibrated from the --network preset");
  cmd->add_flag("--ring-only", args->ringOnly, "only the ring AllReduce (no per-bucket algorithm choice)");
  cmd->add_option("--algorithm-ir", args->irFiles, "an AllReduce MSCCL-IR file to add as a candidate (simulated)");
  cmd->add_option("--ir-dir", args->irDir, "write the library algorithms' IR here (simulated costs)");
  cmd->add_option("--channels", args->channels,
                  "communication channels (the program and the bound are exact for 1; more: the 1-channel plan is run "
                  "on them)")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  cmd->add_flag("--op-fusion", args->opFusion, "also search operator fusion jointly (DisCo's backtracking)");
  cmd->add_option("--search-steps", args->search.maxSteps, "step limit of the search")
      ->check(CLI::Range(int64_t{1}, int64_t{10'000'000}))
      ->capture_default_str();
  cmd->add_option("--patience", args->search.patience, "stop after this many steps without improvement")
      ->check(CLI::Range(int64_t{1}, int64_t{10'000'000}))
      ->capture_default_str();
  cmd->add_option("--seed", args->search.seed, "random seed of the search")->capture_default_str();
  cmd->add_option("--alpha", args->search.alpha, "keep a searched strategy within this factor of the best")
      ->check(CLI::Range(1.0, 10.0))
      ->capture_default_str();
  cmd->add_option("--beta", args->search.beta, "apply each fusion method up to this many times per child")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  cmd->add_option("--search-start", args->searchStart,
                  "where the search starts: both (no fusion and the default fusion) or none (no fusion, as DisCo)")
      ->check(CLI::IsMember({"both", "none"}))
      ->capture_default_str();
  cmd->add_option("--astra-cycle-ns", args->astraCycleNs, "nanoseconds per ASTRA-sim cycle")
      ->check(CLI::Range(1e-6, 1e6))
      ->capture_default_str();
  cmd->add_option("--svg", args->svg, "write the timeline picture (SVG) here");
  cmd->add_option("--png", args->png, "write the timeline picture as PNG here (rendered by rsvg-convert)");
  cmd->add_option("--emit-pytorch", args->emitPytorch,
                  "write the plan's buckets as a Python module for PyTorch (parameter names per bucket, a gradient "
                  "hook that applies them, the nearest DDP bucket_cap_mb)");
  cmd->add_option("-o,--output", args->output, "write the report here instead of standard output");
  addTextOrJsonFormat(cmd, args->format);
  cmd->callback([args, &context] { context.exitCode = runGuarded("plan", [&] { return runPlan(*args); }); });
}

}  // namespace ccforge::cli
