// `ccforge plan MODEL`: tensor fusion with per-bucket AllReduce algorithm choice (and, with
// --op-fusion, DisCo's joint operator fusion search) for one data-parallel training step; the
// plan next to every baseline and the lower bound, and a timeline picture (docs/plan.md).
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <sstream>

#include "ir/json_document.hpp"
#include "cli/commands.hpp"
#include "cli/topology_cli.hpp"
#include "ir/output_file.hpp"
#include "ir/svg_to_png.hpp"
#include "plan/planner.hpp"
#include "plan/simulated_cost.hpp"
#include "plan/timeline_svg.hpp"
#include "plan/workload_reader.hpp"
#include "topology/spec_reader.hpp"

namespace ccforge::cli {
namespace {

using nlohmann::ordered_json;

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
  std::string svg;
  std::string png;
  double astraCycleNs = 1.0;
  std::string format = "text";
  std::string output;
};

std::string ms(double us, int digits = 3) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, us / 1000.0);
  return buf;
}

std::string mib(uint64_t bytes) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1f", static_cast<double>(bytes) / 1048576.0);
  return buf;
}

std::string pct(double value, double base) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f", base > 0 ? (value - base) / base * 100.0 : 0.0);
  return buf;
}

std::string pad(const std::string& s, size_t width) {
  return s.size() >= width ? s + " " : s + std::string(width - s.size(), ' ');
}
std::string lpad(const std::string& s, size_t width) {
  return s.size() >= width ? " " + s : std::string(width - s.size(), ' ') + s;
}

struct Context {
  plan::Workload workload;
  plan::CommCost cost;
  std::string costName;
  std::string where;  // "10gbe, 8 workers" or the topology
  std::vector<std::string> notes;
  int32_t channels = 1;
};

std::string kernelName(const plan::Workload& w, const plan::Kernel& k) {
  std::string s;
  for (int32_t d : k.duplicated) s += w.ops[static_cast<size_t>(d)].name + "(copy) + ";
  for (int32_t op = k.firstOp; op <= k.lastOp; ++op)
    s += w.ops[static_cast<size_t>(op)].name + (op < k.lastOp ? " + " : "");
  return s;
}

std::string text(const Context& c, const plan::PlanReport& r) {
  const plan::Workload& w = c.workload;
  std::ostringstream out;
  out << "plan " << w.name << " (" << w.units << ") on " << c.where << ": " << w.tensors.size() << " gradient tensors, "
      << mib(w.gradientBytes()) << " MiB\n";
  out << "bucket costs: " << c.costName << "\n";
  for (const std::string& n : c.notes) out << "note: " << n << "\n";
  out << "compute: forward " << ms(w.forwardUs()) << " ms, backward " << ms(w.backwardUs()) << " ms (unfused)\n";
  out << "lower bound " << ms(r.bounds.lowerBoundUs) << " ms, fully overlapped (DisCo's FO) "
      << ms(r.bounds.fullyOverlappedUs) << " ms\n";
  if (c.channels > 1)
    out << "note: " << c.channels << " independent channels (each with the full bucket cost, e.g. separate NICs or "
        << "rails); buckets take the first free one; the plan is the one-channel optimum, not optimal here, and the "
        << "bound holds for one channel only\n";
  out << "\nmethod (tensor fusion only, same simulator)  iteration_ms  above_bound_%  buckets\n";
  for (const plan::MethodResult& m : r.methods)
    out << "  " << pad(m.name, 42) << lpad(ms(m.iterationUs), 13) << lpad(pct(m.iterationUs, r.bounds.lowerBoundUs), 15)
        << lpad(std::to_string(m.buckets), 9) << "\n";
  if (r.searched) {
    out << "\nwith default (XLA-style) operator fusion; bound " << ms(r.fusedBounds.lowerBoundUs) << " ms\n";
    for (const plan::MethodResult& m : r.fusedMethods)
      out << "  " << pad(m.name, 42) << lpad(ms(m.iterationUs), 13)
          << lpad(pct(m.iterationUs, r.fusedBounds.lowerBoundUs), 15) << lpad(std::to_string(m.buckets), 9) << "\n";
    out << "joint operator + tensor fusion search: " << ms(r.search.iterationUs) << " ms after " << r.search.steps
        << " steps (" << r.search.improvements << " improvements"
        << (r.search.hitStepLimit ? ", step limit reached" : "") << ")\n";
  }
  out << "\nplan: " << r.buckets.buckets.size() << " buckets, iteration " << ms(r.iterationUs) << " ms ("
      << pct(r.iterationUs, r.planBounds.lowerBoundUs) << " % above its schedule's lower bound "
      << ms(r.planBounds.lowerBoundUs) << " ms)\n";
  out << "  bucket  tensors                                       bytes  algorithm                          start_ms  "
         "finish_ms\n";
  for (size_t i = 0; i < r.buckets.buckets.size(); ++i) {
    const plan::Bucket& b = r.buckets.buckets[i];
    const std::string& first =
        w.tensors[static_cast<size_t>(r.schedule.tensorOrder[static_cast<size_t>(b.first)])].name;
    const std::string& last = w.tensors[static_cast<size_t>(r.schedule.tensorOrder[static_cast<size_t>(b.last)])].name;
    std::string tensors =
        b.first == b.last ? first : first + " .. " + last + " (" + std::to_string(b.last - b.first + 1) + ")";
    const plan::AlgorithmCurve& a = c.cost.curves()[static_cast<size_t>(b.algorithm)];
    out << lpad(std::to_string(i), 8) << "  " << pad(tensors, 44) << lpad(std::to_string(b.bytes), 11) << "  "
        << pad(a.name, 33) << lpad(ms(b.startUs), 9) << lpad(ms(b.finishUs), 11) << "\n";
  }
  std::vector<std::string> irs;
  for (const plan::AlgorithmCurve& a : c.cost.curves())
    if (!a.irFile.empty()) irs.push_back(a.name + " = " + a.irFile);
  if (!irs.empty()) {
    out << "IR files:";
    for (const std::string& s : irs) out << " " << s << ";";
    out << "\n";
  }
  size_t fusedKernels = 0;
  for (const plan::Kernel& k : r.schedule.kernels)
    if (k.lastOp > k.firstOp || !k.duplicated.empty()) ++fusedKernels;
  if (r.searched) {
    out << "fused op groups: " << fusedKernels << "\n";
    for (const plan::Kernel& k : r.schedule.kernels)
      if (k.lastOp > k.firstOp || !k.duplicated.empty())
        out << "  " << kernelName(w, k) << "  " << ms(k.timeUs) << " ms\n";
  }
  return out.str();
}

std::string json(const Context& c, const plan::PlanReport& r) {
  const plan::Workload& w = c.workload;
  ordered_json j;
  j["model"] = w.name;
  j["source"] = w.source;
  j["network"] = c.where;
  j["bucket_costs"] = c.costName;
  j["channels"] = c.channels;
  j["notes"] = c.notes;
  ordered_json algs = ordered_json::array();
  for (const plan::AlgorithmCurve& a : c.cost.curves()) algs.push_back({{"name", a.name}, {"ir_file", a.irFile}});
  j["algorithms"] = algs;
  j["forward_us"] = w.forwardUs();
  j["backward_us"] = w.backwardUs();
  j["lower_bound_us"] = r.bounds.lowerBoundUs;
  j["fully_overlapped_us"] = r.bounds.fullyOverlappedUs;
  j["iteration_us"] = r.iterationUs;
  j["plan_lower_bound_us"] = r.planBounds.lowerBoundUs;
  auto methods = [](const std::vector<plan::MethodResult>& list) {
    ordered_json a = ordered_json::array();
    for (const plan::MethodResult& m : list)
      a.push_back(
          {{"method", m.name}, {"op_fusion", m.opFusion}, {"iteration_us", m.iterationUs}, {"buckets", m.buckets}});
    return a;
  };
  j["methods"] = methods(r.methods);
  if (r.searched) {
    j["default_op_fusion_methods"] = methods(r.fusedMethods);
    j["default_op_fusion_lower_bound_us"] = r.fusedBounds.lowerBoundUs;
    j["search"] = {{"iteration_us", r.search.iterationUs},
                   {"steps", r.search.steps},
                   {"improvements", r.search.improvements},
                   {"step_limit_reached", r.search.hitStepLimit}};
  }
  ordered_json buckets = ordered_json::array();
  for (const plan::Bucket& b : r.buckets.buckets) {
    ordered_json names = ordered_json::array();
    for (int32_t t = b.first; t <= b.last; ++t)
      names.push_back(w.tensors[static_cast<size_t>(r.schedule.tensorOrder[static_cast<size_t>(t)])].name);
    const plan::AlgorithmCurve& a = c.cost.curves()[static_cast<size_t>(b.algorithm)];
    buckets.push_back({{"channel", b.channel},
                       {"tensors", names},
                       {"bytes", b.bytes},
                       {"algorithm", a.name},
                       {"ir_file", a.irFile},
                       {"start_us", b.startUs},
                       {"finish_us", b.finishUs}});
  }
  j["buckets"] = buckets;
  ordered_json groups = ordered_json::array();
  for (const plan::Kernel& k : r.schedule.kernels)
    if (k.lastOp > k.firstOp || !k.duplicated.empty()) {
      ordered_json ops = ordered_json::array(), dup = ordered_json::array();
      for (int32_t op = k.firstOp; op <= k.lastOp; ++op) ops.push_back(w.ops[static_cast<size_t>(op)].name);
      for (int32_t d : k.duplicated) dup.push_back(w.ops[static_cast<size_t>(d)].name);
      groups.push_back({{"ops", ops}, {"recomputed", dup}, {"time_us", k.timeUs}});
    }
  j["fused_op_groups"] = groups;
  return jsonDocument(j);
}

// The timeline as PNG: the SVG rendered by rsvg-convert into a temporary file renamed to `path`.
int writePng(const std::string& path, const std::string& svg) {
  try {
    replaceOutputFile(path, [&](const std::filesystem::path& png) {
      const std::filesystem::path svgFile = png.string() + ".svg";
      writeOutputFile(svgFile, svg);
      const std::string why = svgToPng(svgFile.string(), png.string());
      std::error_code ec;
      std::filesystem::remove(svgFile, ec);
      if (!why.empty()) throw OutputError(path + ": no PNG: " + why);
    });
  } catch (const OutputError& e) {
    std::cerr << "ccforge plan: " << e.what() << "\n";
    return kExitUsage;
  }
  return kExitVerified;
}

int runPlan(const PlanArguments& args) {
  Context c{plan::loadWorkload(args.model, args.astraCycleNs), {}, "", "", {}, args.channels};
  if (!args.topology.empty() || args.simulate || !args.irFiles.empty()) {
    topo::Topology t;
    plan::SimulatedCostOptions o;
    if (!args.topology.empty()) {
      t = topo::loadTopology(args.topology);
      c.where = t.name + ", " + std::to_string(t.gpus().size()) + " workers";
    } else {
      t = plan::presetTopology(plan::findNetworkPreset(args.network), args.workers);
      o.arch = sim::Arch::None;
      c.where = args.network + " (simulated switch), " + std::to_string(args.workers) + " workers";
    }
    o.maxBytes = std::max<uint64_t>(o.maxBytes, c.workload.gradientBytes());  // the largest possible bucket
    o.irFiles = args.irFiles;
    o.irDir = args.irDir;
    o.ringOnly = args.ringOnly;
    c.cost = plan::simulatedCost(t, o, &c.notes);
    std::vector<uint64_t> sizes = plan::defaultSimulatedSizes(o.maxBytes);
    c.costName = "ccforge simulate of each algorithm on " + t.name + " (1 KiB.." + std::to_string(sizes.back() >> 20) +
                 " MiB by factors of 4, interpolated)";
  } else {
    const plan::NetworkPreset& p = plan::findNetworkPreset(args.network);
    c.cost = plan::analyticCost(p, args.workers, args.ringOnly);
    c.where = args.network + ", " + std::to_string(args.workers) + " workers";
    c.costName = "alpha-beta preset (" + p.description + ")";
  }
  std::string names;
  for (const plan::AlgorithmCurve& a : c.cost.curves()) names += (names.empty() ? "" : ", ") + a.name;
  c.costName += "; algorithms: " + names;
  plan::PlanOptions o;
  o.opFusion = args.opFusion;
  o.channels = args.channels;
  o.search = args.search;
  plan::RooflineEstimator estimator;
  plan::PlanReport r = plan::makePlan(c.workload, c.cost, o, estimator);
  if (!args.svg.empty() || !args.png.empty()) {
    std::string title = "ccforge plan " + c.workload.name + " on " + c.where + ": iteration " + ms(r.iterationUs) +
                        " ms, lower bound " + ms(r.bounds.lowerBoundUs) + " ms";
    const std::string svg = plan::timelineSvg(c.workload, r.schedule, r.buckets, c.cost, title, r.bounds.lowerBoundUs);
    if (!args.svg.empty())
      if (const int rc = writeOutput("plan", args.svg, svg); rc != kExitVerified) return rc;
    if (!args.png.empty())
      if (const int rc = writePng(args.png, svg); rc != kExitVerified) return rc;
  }
  return writeOutput("plan", args.output, args.format == "json" ? json(c, r) : text(c, r));
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
  cmd->add_option("--astra-cycle-ns", args->astraCycleNs, "nanoseconds per ASTRA-sim cycle")
      ->check(CLI::Range(1e-6, 1e6))
      ->capture_default_str();
  cmd->add_option("--svg", args->svg, "write the timeline picture (SVG) here");
  cmd->add_option("--png", args->png, "write the timeline picture as PNG here (rendered by rsvg-convert)");
  cmd->add_option("-o,--output", args->output, "write the report here instead of standard output");
  addTextOrJsonFormat(cmd, args->format);
  cmd->callback([args, &context] { context.exitCode = runGuarded("plan", [&] { return runPlan(*args); }); });
}

}  // namespace ccforge::cli
