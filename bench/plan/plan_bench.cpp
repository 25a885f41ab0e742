// Training-step planning benchmark (docs/benchmarks.md, "Training-step planning (issue 15)").
// usage: plan_bench [quality|quality-simulated|algorithms|fusion|search|speed]...   (default: all)
//   quality     4 models x 3 networks x {8, 64} workers: every method's iteration time as % above
//               the lower bound, analytic alpha-beta bucket costs (min over ring, halving-doubling,
//               recursive doubling)
//   quality-simulated  the same with costs from ccforge's simulator (the library's AllReduces on a
//               switch calibrated from each preset, src/plan/simulated_cost.hpp)
//   algorithms  per-bucket algorithm choice against ring only at 64 workers: analytic costs, and
//               costs from ccforge's simulator on a switch calibrated from each preset
//   fusion      joint operator + tensor fusion (DisCo's search) against the best baseline
//   search      DisCo's Algorithm 1 itself: from no fusion against the default fusion, its alpha and
//               beta, and an ablation of operator against tensor fusion
//   speed       the tensor-fusion program on 2,000 tensors
// Output is Markdown. Times other than the search and speed sections are deterministic.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <ctime>
#include <string>
#include <vector>

#include "plan/planner.hpp"
#include "plan/simulated_cost.hpp"
#include "plan/workload_reader.hpp"

namespace plan = ccforge::plan;
namespace sim = ccforge::sim;

namespace {

double pct(double v, double base) { return (v - base) / base * 100.0; }

const std::vector<std::string> kModels{"resnet50", "vgg19", "bert-base", "gpt2-small"};
const std::vector<std::string> kNetworks{"10gbe", "ib56", "nvlink"};

// Simulated tables reach the largest bucket any of the models can form (VGG19's 548 MiB).
uint64_t largestModelBytes() {
  uint64_t m = 0;
  for (const std::string& name : kModels) m = std::max(m, plan::builtinWorkload(name).gradientBytes());
  return m;
}

void quality(bool simulated) {
  if (simulated)
    std::printf(
        "### Quality: %% above the lower bound (costs from ccforge's simulator: the library's AllReduces on a "
        "switch calibrated from each preset)\n\n");
  else
    std::printf("### Quality: %% above the lower bound (analytic alpha-beta costs)\n\n");
  std::printf(
      "| model | network | workers | bound (ms) | per-tensor | one bucket | DDP 25 MiB | Horovod 64 MiB | "
      "Horovod 128 MiB | XLA 30 MiB | MG-WFBP | **planner** (buckets) | planner, ring only |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  double worstPlanner = 0, worstFixed = 0;
  std::string worstFixedWhere;
  // Simulated costs per (network, workers), computed once.
  std::vector<std::pair<std::string, plan::CommCost>> tables;
  if (simulated)
    for (const std::string& net : kNetworks)
      for (int32_t workers : {8, 64}) {
        plan::SimulatedCostOptions o;
        o.maxBytes = largestModelBytes();
        o.arch = sim::Arch::None;
        tables.emplace_back(
            net + std::to_string(workers),
            plan::simulatedCost(plan::presetTopology(plan::findNetworkPreset(net), workers), o, nullptr));
      }
  auto costFor = [&](const std::string& net, int32_t workers, bool ringOnly) {
    if (!simulated) return plan::analyticCost(plan::findNetworkPreset(net), workers, ringOnly);
    for (const auto& [k, c] : tables)
      if (k == net + std::to_string(workers)) return ringOnly ? c.onlyNamed("ring-allreduce/") : c;
    throw std::logic_error("no table");
  };
  for (const std::string& m : kModels) {
    plan::Workload w = plan::builtinWorkload(m);
    plan::RooflineEstimator e;
    plan::ComputeSchedule s = plan::computeSchedule(w, plan::FusionStrategy::none(w.ops.size()), e);
    for (const std::string& net : kNetworks)
      for (int32_t workers : {8, 64}) {
        plan::CommCost cost = costFor(net, workers, false);
        plan::CommCost ring = costFor(net, workers, true);
        plan::Bounds b = plan::iterationBounds(s, cost);
        std::vector<plan::MethodResult> methods = plan::tensorFusionMethods(s, cost, "none");
        double ringOnly = plan::runIteration(s, "ring", plan::optimalPartition(s.instance, ring)).iterationUs;
        std::printf("| %s | %s | %d | %.1f |", m.c_str(), net.c_str(), workers, b.lowerBoundUs / 1000);
        for (size_t i = 1; i < methods.size(); ++i) {
          double p = pct(methods[i].iterationUs, b.lowerBoundUs);
          std::printf(" %.2f |", p);
          if (methods[i].name != "per-tensor" && methods[i].name != "one bucket" && methods[i].name != "MG-WFBP" &&
              p > worstFixed) {
            worstFixed = p;
            worstFixedWhere = methods[i].name + ", " + m + ", " + net + ", " + std::to_string(workers) + " workers";
          }
        }
        double p = pct(methods[0].iterationUs, b.lowerBoundUs);
        worstPlanner = std::max(worstPlanner, p);
        std::printf(" **%.2f** (%zu) | %.2f |\n", p, methods[0].buckets, pct(ringOnly, b.lowerBoundUs));
      }
  }
  std::printf("\nplanner at most %.2f %% above the bound; worst fixed threshold %.2f %% (%s)\n\n", worstPlanner,
              worstFixed, worstFixedWhere.c_str());
}

void algorithms() {
  std::printf("### Per-bucket algorithm choice against ring only, 64 workers\n\n");
  std::printf(
      "| model | network | costs | planner, ring only (ms) | planner, per-bucket choice (ms) | gain | "
      "algorithms used |\n|---|---|---|---|---|---|---|\n");
  for (const std::string& net : kNetworks) {
    const plan::NetworkPreset& preset = plan::findNetworkPreset(net);
    plan::SimulatedCostOptions o;
    o.maxBytes = largestModelBytes();
    o.arch = sim::Arch::None;
    std::vector<std::string> notes;
    auto start = std::chrono::steady_clock::now();
    plan::CommCost simulated = plan::simulatedCost(plan::presetTopology(preset, 64), o, &notes);
    double simSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    plan::CommCost simRing = simulated.onlyNamed("ring-allreduce/");
    struct Costs {
      const char* name;
      plan::CommCost all, ring;
    } costs[] = {{"analytic", plan::analyticCost(preset, 64), plan::analyticCost(preset, 64, true)},
                 {"simulated", simulated, simRing}};
    for (const std::string& m : kModels) {
      plan::Workload w = plan::builtinWorkload(m);
      plan::ComputeSchedule s =
          plan::computeSchedule(w, plan::FusionStrategy::none(w.ops.size()), plan::RooflineEstimator());
      for (const Costs& c : costs) {
        plan::BucketPlan all = plan::optimalPartition(s.instance, c.all);
        plan::BucketPlan ring = plan::optimalPartition(s.instance, c.ring);
        double tAll = std::max(s.computeEndUs, all.finishUs), tRing = std::max(s.computeEndUs, ring.finishUs);
        std::vector<int> used(c.all.curves().size(), 0);
        for (const plan::Bucket& b : all.buckets) ++used[static_cast<size_t>(b.algorithm)];
        std::string u;
        for (size_t a = 0; a < used.size(); ++a)
          if (used[a] > 0) u += (u.empty() ? "" : ", ") + c.all.curves()[a].name + " x" + std::to_string(used[a]);
        std::printf("| %s | %s | %s | %.1f | %.1f | %.1f %% | %s |\n", m.c_str(), net.c_str(), c.name, tRing / 1000,
                    tAll / 1000, (tRing - tAll) / tRing * 100, u.c_str());
      }
    }
    std::printf("\n%s: simulating the library on 64 workers took %.1f s", net.c_str(), simSeconds);
    for (const std::string& n : notes) std::printf("; %s", n.c_str());
    std::printf("\n\n");
  }
}

void fusion() {
  std::printf("### Joint operator + tensor fusion (DisCo's search, alpha 1.05, beta 10, patience 1000)\n\n");
  std::printf(
      "| model | network | DisCo's baselines: best (ms) | all baselines: best (ms) | joint search (ms) | gain over "
      "DisCo's baselines | gain over all | FO (ms) | FO gain over DisCo's baselines | share of FO headroom | "
      "steps | search time (s) |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const std::string& m : {std::string("vgg19"), std::string("resnet50"), std::string("transformer"),
                               std::string("bert-base"), std::string("gpt2-small")})
    for (const std::string& net : {std::string("ib56"), std::string("nvlink")}) {
      const int32_t workers = 8;
      plan::Workload w = plan::builtinWorkload(m);
      plan::CommCost cost = plan::analyticCost(plan::findNetworkPreset(net), workers);
      plan::PlanOptions o;
      o.opFusion = true;
      auto start = std::chrono::steady_clock::now();
      plan::PlanReport r = plan::makePlan(w, cost, o, plan::RooflineEstimator());
      double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      // DisCo's baselines (its section 6): no fusion, op fusion only, AllReduce fusion by a fixed
      // threshold (XLA's 30 MiB) with and without op fusion, PyTorch DDP (no op fusion).
      // "All": every baseline here with and without default op fusion (MG-WFBP included).
      const plan::MethodResult* discoBest = nullptr;
      const plan::MethodResult* allBest = nullptr;
      for (const auto* list : {&r.methods, &r.fusedMethods})
        for (const plan::MethodResult& x : *list) {
          if (x.name == "planner") continue;
          if (allBest == nullptr || x.iterationUs < allBest->iterationUs) allBest = &x;
          bool disco =
              x.name == "per-tensor" || x.name == "XLA 30 MiB" || (x.name == "DDP 25 MiB" && x.opFusion == "none");
          if (disco && (discoBest == nullptr || x.iterationUs < discoBest->iterationUs)) discoBest = &x;
        }
      // DisCo's FO: compute (with default fusion) and the cheapest communication fully overlapped.
      double fo = r.fusedBounds.fullyOverlappedUs;
      double t = r.iterationUs, td = discoBest->iterationUs, ta = allBest->iterationUs;
      char share[32] = "n/a (no headroom)";
      if ((td - fo) / fo > 1e-3) std::snprintf(share, sizeof share, "%.0f %%", (td - t) / (td - fo) * 100);
      std::printf(
          "| %s | %s | %.2f (%s, %s op fusion) | %.2f (%s, %s) | %.2f | %.2f %% | %.2f %% | %.2f | %.1f %% | %s | %lld "
          "| %.2f |\n",
          m.c_str(), net.c_str(), td / 1000, discoBest->name.c_str(), discoBest->opFusion.c_str(), ta / 1000,
          allBest->name.c_str(), allBest->opFusion.c_str(), t / 1000, (td - t) / t * 100, (ta - t) / t * 100, fo / 1000,
          (td - fo) / fo * 100, share, static_cast<long long>(r.search.steps), seconds);
    }
  std::printf("\n8 workers throughout; gains as DisCo's Table 1 computes them, (T_baseline - T) / T.\n\n");
}

// One search, timed.
struct TimedSearch {
  plan::SearchResult result;
  double seconds = 0;
};

TimedSearch timedSearch(const plan::Workload& w, const plan::CommCost& cost, const plan::SearchOptions& o) {
  auto start = std::chrono::steady_clock::now();
  TimedSearch t;
  t.result = plan::discoSearch(w, plan::RooflineEstimator(), cost, o);
  t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return t;
}

// A strategy's iteration time with one AllReduce per tensor.
double perTensorIteration(const plan::Workload& w, const plan::FusionStrategy& s, const plan::CommCost& cost) {
  plan::ComputeSchedule schedule = plan::computeSchedule(w, s, plan::RooflineEstimator());
  const plan::BucketPlan buckets = plan::runPartition(schedule.instance, plan::perTensor(schedule.instance).ends, cost);
  return plan::runIteration(schedule, "per-tensor", buckets).iterationUs;
}

// A strategy's iteration time with the optimal buckets, as the search evaluates it.
double optimalBucketsIteration(const plan::Workload& w, const plan::FusionStrategy& s, const plan::CommCost& cost) {
  return plan::evaluateStrategy(w, plan::consumersOf(w), s, plan::RooflineEstimator(), cost);
}

void search() {
  const std::vector<std::string> models{"vgg19", "resnet50", "transformer", "bert-base", "gpt2-small"};
  std::printf(
      "### DisCo's Algorithm 1 from no fusion (alpha 1.05, beta 10, patience 1000, 8 workers)\n\n"
      "| model | network | default fusion, optimal buckets (ms) | search from no fusion (ms) | steps | "
      "reaches the default | search from both (ms) | steps |\n|---|---|---|---|---|---|---|---|\n");
  int reached = 0, rows = 0;
  for (const std::string& m : models)
    for (const std::string& net : kNetworks) {
      plan::Workload w = plan::builtinWorkload(m);
      plan::CommCost cost = plan::analyticCost(plan::findNetworkPreset(net), 8);
      double byDefault = optimalBucketsIteration(w, plan::greedyElementwiseFusion(w), cost);
      plan::SearchOptions none;
      none.alsoStartFromDefault = false;
      plan::SearchResult fromNone = timedSearch(w, cost, none).result;
      plan::SearchResult fromBoth = timedSearch(w, cost, plan::SearchOptions()).result;
      bool reaches = fromNone.iterationUs <= byDefault;
      reached += reaches ? 1 : 0;
      ++rows;
      std::printf("| %s | %s | %.2f | %.2f | %lld | %s (%+.3f %%) | %.2f | %lld |\n", m.c_str(), net.c_str(),
                  byDefault / 1000, fromNone.iterationUs / 1000, static_cast<long long>(fromNone.steps),
                  reaches ? "yes" : "no", pct(fromNone.iterationUs, byDefault), fromBoth.iterationUs / 1000,
                  static_cast<long long>(fromBoth.steps));
    }
  std::printf("\nFrom no fusion the search reaches the default fusion's time in %d of %d rows.\n\n", reached, rows);

  std::printf(
      "### Alpha and beta (ib56, 8 workers, search from no fusion; iteration ms / steps / seconds)\n\n"
      "| model | alpha 1.0 | alpha 1.05 | alpha 1.1 | beta 1 | beta 3 | beta 10 | beta 30 |\n"
      "|---|---|---|---|---|---|---|---|\n");
  for (const std::string& m : models) {
    plan::Workload w = plan::builtinWorkload(m);
    plan::CommCost cost = plan::analyticCost(plan::findNetworkPreset("ib56"), 8);
    std::printf("| %s", m.c_str());
    auto cell = [&](double alpha, int32_t beta) {
      plan::SearchOptions o;
      o.alsoStartFromDefault = false;
      o.alpha = alpha;
      o.beta = beta;
      TimedSearch t = timedSearch(w, cost, o);
      std::printf(" | %.2f / %lld / %.2f", t.result.iterationUs / 1000, static_cast<long long>(t.result.steps),
                  t.seconds);
    };
    for (double alpha : {1.0, 1.05, 1.1}) cell(alpha, 10);
    for (int32_t beta : {1, 3, 10, 30}) cell(1.05, beta);
    std::printf(" |\n");
  }

  std::printf(
      "\n### Ablation (8 workers; iteration ms, and the gain over no fusion with one AllReduce per tensor)\n\n"
      "| model | network | no fusion, per tensor | tensor fusion only (optimal buckets) | default op fusion, per "
      "tensor | searched op fusion, per tensor | joint search |\n|---|---|---|---|---|---|---|\n");
  for (const std::string& m : models)
    for (const std::string& net : {std::string("ib56"), std::string("nvlink")}) {
      plan::Workload w = plan::builtinWorkload(m);
      plan::CommCost cost = plan::analyticCost(plan::findNetworkPreset(net), 8);
      plan::SearchOptions o;
      o.alsoStartFromDefault = false;
      plan::SearchResult joint = timedSearch(w, cost, o).result;
      const plan::FusionStrategy unfused = plan::FusionStrategy::none(w.ops.size());
      double base = perTensorIteration(w, unfused, cost);
      double cells[] = {base, optimalBucketsIteration(w, unfused, cost),
                        perTensorIteration(w, plan::greedyElementwiseFusion(w), cost),
                        perTensorIteration(w, joint.strategy, cost), joint.iterationUs};
      std::printf("| %s | %s", m.c_str(), net.c_str());
      for (double c : cells) std::printf(" | %.2f (%.1f %%)", c / 1000, (base - c) / c * 100);
      std::printf(" |\n");
    }
  std::printf("\n");
}

void speed() {
  std::printf("### Speed: the tensor-fusion program on 2,000 tensors\n\n");
  std::mt19937_64 rng(42);
  plan::FusionInstance in;
  double t = 0;
  for (int i = 0; i < 2000; ++i) {
    in.bytes.push_back((uint64_t{4} << (rng() % 22)) + rng() % 4096);
    t += static_cast<double>(rng() % 1000) / 10.0;
    in.readyUs.push_back(t);
  }
  plan::SimulatedCostOptions o;
  plan::CommCost simulated = plan::simulatedCost(plan::presetTopology(plan::findNetworkPreset("10gbe"), 8), o, nullptr);
  struct Case {
    const char* name;
    plan::CommCost cost;
  } cases[] = {{"10gbe, 64 workers, analytic", plan::analyticCost(plan::findNetworkPreset("10gbe"), 64)},
               {"nvlink, 8 workers, analytic", plan::analyticCost(plan::findNetworkPreset("nvlink"), 8)},
               {"10gbe switch, 8 workers, simulated tables", simulated}};
  std::printf(
      "| cost | curves (useful) | buckets | CPU time, best of 5 (ms) | wall time, best of 5 (ms) |\n"
      "|---|---|---|---|---|\n");
  for (const Case& c : cases) {
    double best = 1e30, bestCpu = 1e30;
    size_t buckets = 0;
    for (int r = 0; r < 5; ++r) {
      timespec c0{}, c1{};
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
      auto start = std::chrono::steady_clock::now();
      plan::BucketPlan p = plan::optimalPartition(in, c.cost);
      best =
          std::min(best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
      bestCpu = std::min(bestCpu, (c1.tv_sec - c0.tv_sec) * 1e3 + (c1.tv_nsec - c0.tv_nsec) / 1e6);
      buckets = p.buckets.size();
    }
    std::printf("| %s | %zu (%zu) | %zu | %.2f | %.2f |\n", c.name, c.cost.curves().size(),
                c.cost.usefulCurves().size(), buckets, bestCpu, best);
  }
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> parts(argv + 1, argv + argc);
  if (parts.empty()) parts = {"quality", "quality-simulated", "algorithms", "fusion", "search", "speed"};
  for (const std::string& p : parts) {
    if (p == "quality")
      quality(false);
    else if (p == "quality-simulated")
      quality(true);
    else if (p == "algorithms")
      algorithms();
    else if (p == "fusion")
      fusion();
    else if (p == "search")
      search();
    else if (p == "speed")
      speed();
    else {
      std::fprintf(stderr, "plan_bench: unknown section %s\n", p.c_str());
      return 1;
    }
    std::fflush(stdout);
  }
  return 0;
}
