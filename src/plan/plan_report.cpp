#include "plan/plan_report.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <sstream>

#include "base/json_document.hpp"

namespace ccforge::plan {
namespace {

using nlohmann::ordered_json;

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

std::string kernelName(const Workload& w, const Kernel& k) {
  std::string s;
  for (int32_t d : k.duplicated) s += w.ops[static_cast<size_t>(d)].name + "(copy) + ";
  for (int32_t op = k.firstOp; op <= k.lastOp; ++op)
    s += w.ops[static_cast<size_t>(op)].name + (op < k.lastOp ? " + " : "");
  return s;
}

}  // namespace

std::string planText(const PlanSetting& c, const PlanReport& r) {
  const Workload& w = c.workload;
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
  for (const MethodResult& m : r.methods)
    out << "  " << pad(m.name, 42) << lpad(ms(m.iterationUs), 13) << lpad(pct(m.iterationUs, r.bounds.lowerBoundUs), 15)
        << lpad(std::to_string(m.buckets), 9) << "\n";
  if (r.searched) {
    out << "\nwith default (XLA-style) operator fusion; bound " << ms(r.fusedBounds.lowerBoundUs) << " ms\n";
    for (const MethodResult& m : r.fusedMethods)
      out << "  " << pad(m.name, 42) << lpad(ms(m.iterationUs), 13)
          << lpad(pct(m.iterationUs, r.fusedBounds.lowerBoundUs), 15) << lpad(std::to_string(m.buckets), 9) << "\n";
    out << "joint operator + tensor fusion search (from no fusion"
        << (r.searchOptions.alsoStartFromDefault ? " and the default fusion" : "") << ", alpha "
        << r.searchOptions.alpha << ", beta " << r.searchOptions.beta << "): " << ms(r.search.iterationUs)
        << " ms after " << r.search.steps << " steps (" << r.search.improvements << " improvements"
        << (r.search.hitStepLimit ? ", step limit reached" : "") << ")\n";
  }
  out << "\nplan: " << r.buckets.buckets.size() << " buckets, iteration " << ms(r.iterationUs) << " ms ("
      << pct(r.iterationUs, r.planBounds.lowerBoundUs) << " % above its schedule's lower bound "
      << ms(r.planBounds.lowerBoundUs) << " ms)\n";
  out << "  bucket  tensors                                       bytes  algorithm                          start_ms  "
         "finish_ms\n";
  for (size_t i = 0; i < r.buckets.buckets.size(); ++i) {
    const Bucket& b = r.buckets.buckets[i];
    const std::string& first =
        w.tensors[static_cast<size_t>(r.schedule.tensorOrder[static_cast<size_t>(b.first)])].name;
    const std::string& last = w.tensors[static_cast<size_t>(r.schedule.tensorOrder[static_cast<size_t>(b.last)])].name;
    std::string tensors =
        b.first == b.last ? first : first + " .. " + last + " (" + std::to_string(b.last - b.first + 1) + ")";
    const AlgorithmCurve& a = c.cost.curves()[static_cast<size_t>(b.algorithm)];
    out << lpad(std::to_string(i), 8) << "  " << pad(tensors, 44) << lpad(std::to_string(b.bytes), 11) << "  "
        << pad(a.name, 33) << lpad(ms(b.startUs), 9) << lpad(ms(b.finishUs), 11) << "\n";
  }
  std::vector<std::string> irs;
  for (const AlgorithmCurve& a : c.cost.curves())
    if (!a.irFile.empty()) irs.push_back(a.name + " = " + a.irFile);
  if (!irs.empty()) {
    out << "IR files:";
    for (const std::string& s : irs) out << " " << s << ";";
    out << "\n";
  }
  size_t fusedKernels = 0;
  for (const Kernel& k : r.schedule.kernels)
    if (k.lastOp > k.firstOp || !k.duplicated.empty()) ++fusedKernels;
  if (r.searched) {
    out << "fused op groups: " << fusedKernels << "\n";
    for (const Kernel& k : r.schedule.kernels)
      if (k.lastOp > k.firstOp || !k.duplicated.empty())
        out << "  " << kernelName(w, k) << "  " << ms(k.timeUs) << " ms\n";
  }
  return out.str();
}

std::string planJson(const PlanSetting& c, const PlanReport& r) {
  const Workload& w = c.workload;
  ordered_json j;
  j["model"] = w.name;
  j["source"] = w.source;
  j["network"] = c.where;
  j["bucket_costs"] = c.costName;
  j["channels"] = c.channels;
  j["notes"] = c.notes;
  ordered_json algs = ordered_json::array();
  for (const AlgorithmCurve& a : c.cost.curves()) algs.push_back({{"name", a.name}, {"ir_file", a.irFile}});
  j["algorithms"] = algs;
  j["forward_us"] = w.forwardUs();
  j["backward_us"] = w.backwardUs();
  j["lower_bound_us"] = r.bounds.lowerBoundUs;
  j["fully_overlapped_us"] = r.bounds.fullyOverlappedUs;
  j["iteration_us"] = r.iterationUs;
  j["plan_lower_bound_us"] = r.planBounds.lowerBoundUs;
  auto methods = [](const std::vector<MethodResult>& list) {
    ordered_json a = ordered_json::array();
    for (const MethodResult& m : list)
      a.push_back(
          {{"method", m.name}, {"op_fusion", m.opFusion}, {"iteration_us", m.iterationUs}, {"buckets", m.buckets}});
    return a;
  };
  j["methods"] = methods(r.methods);
  if (r.searched) {
    j["default_op_fusion_methods"] = methods(r.fusedMethods);
    j["default_op_fusion_lower_bound_us"] = r.fusedBounds.lowerBoundUs;
    j["search"] = {{"start", r.searchOptions.alsoStartFromDefault ? "both" : "none"},
                   {"alpha", r.searchOptions.alpha},
                   {"beta", r.searchOptions.beta},
                   {"iteration_us", r.search.iterationUs},
                   {"steps", r.search.steps},
                   {"improvements", r.search.improvements},
                   {"step_limit_reached", r.search.hitStepLimit}};
  }
  ordered_json buckets = ordered_json::array();
  for (const Bucket& b : r.buckets.buckets) {
    ordered_json names = ordered_json::array();
    for (int32_t t = b.first; t <= b.last; ++t)
      names.push_back(w.tensors[static_cast<size_t>(r.schedule.tensorOrder[static_cast<size_t>(t)])].name);
    const AlgorithmCurve& a = c.cost.curves()[static_cast<size_t>(b.algorithm)];
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
  for (const Kernel& k : r.schedule.kernels)
    if (k.lastOp > k.firstOp || !k.duplicated.empty()) {
      ordered_json ops = ordered_json::array(), dup = ordered_json::array();
      for (int32_t op = k.firstOp; op <= k.lastOp; ++op) ops.push_back(w.ops[static_cast<size_t>(op)].name);
      for (int32_t d : k.duplicated) dup.push_back(w.ops[static_cast<size_t>(d)].name);
      groups.push_back({{"ops", ops}, {"recomputed", dup}, {"time_us", k.timeUs}});
    }
  j["fused_op_groups"] = groups;
  return base::jsonDocument(j);
}

std::string planTimelineTitle(const PlanSetting& c, const PlanReport& r) {
  return "ccforge plan " + c.workload.name + " on " + c.where + ": iteration " + ms(r.iterationUs) +
         " ms, lower bound " + ms(r.bounds.lowerBoundUs) + " ms";
}

}  // namespace ccforge::plan
