#include "calibrate/fit_report.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/json_document.hpp"

#include <cmath>

namespace ccforge::calibrate {
namespace {

std::string tableName(const LogInput& log) {
  return fmt::format("{} ({}, -g {})", log.table.source, collectiveTypeName(log.table.collective),
                     log.table.gpusPerThread);
}

}  // namespace

std::string fitReportText(const FitResult& fit, const std::vector<LogInput>& logs, const std::string& topology) {
  std::string out = fmt::format("calibrate {} from {} table{}\n", topology, logs.size(), logs.size() == 1 ? "" : "s");
  out += "parameters:\n";
  for (const ParameterFit& p : fit.parameters)
    out += p.determined ? fmt::format("  {:<20} {:>10.4g} -> {:<10.4g} fitted: {}\n", p.key, p.before, p.value, p.why)
                        : fmt::format("  {:<20} {:>10.4g}    not determined: {}\n", p.key, p.before, p.why);
  for (size_t t = 0; t < logs.size(); ++t) {
    out += fmt::format("{}\n  {:>12} {:>12} {:>12} {:>8} {:>12} {:>8}  {}\n", tableName(logs[t]), "size (B)",
                       "measured us", "before us", "ratio", "after us", "ratio", "NCCL's choice");
    for (const RowFit& r : fit.rows)
      if (r.table == t)
        out += fmt::format("  {:>12} {:>12.2f} {:>12.2f} {:>8.3f} {:>12.2f} {:>8.3f}  {}\n", r.bytes, r.measuredUs,
                           r.predictedBeforeUs, r.predictedBeforeUs / r.measuredUs, r.predictedUs,
                           r.predictedUs / r.measuredUs, r.choice);
  }
  out += fmt::format(
      "error left (predicted/measured within): below 1 MiB x{:.3f}, 1 MiB to 256 MiB x{:.3f}, from 256 MiB x{:.3f}\n",
      std::exp(fit.errorSmall), std::exp(fit.errorMedium), std::exp(fit.errorLarge));
  return out;
}

std::string fitReportJson(const FitResult& fit, const std::vector<LogInput>& logs, const std::string& topology) {
  nlohmann::ordered_json j;
  j["topology"] = topology;
  nlohmann::ordered_json parameters = nlohmann::ordered_json::array();
  for (const ParameterFit& p : fit.parameters)
    parameters.push_back(
        {{"key", p.key}, {"before", p.before}, {"value", p.value}, {"determined", p.determined}, {"why", p.why}});
  j["parameters"] = parameters;
  nlohmann::ordered_json tables = nlohmann::ordered_json::array();
  for (size_t t = 0; t < logs.size(); ++t) {
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const RowFit& r : fit.rows)
      if (r.table == t)
        rows.push_back({{"size_bytes", r.bytes},
                        {"measured_us", r.measuredUs},
                        {"predicted_before_us", r.predictedBeforeUs},
                        {"predicted_us", r.predictedUs},
                        {"choice", r.choice}});
    tables.push_back(
        {{"log", logs[t].table.source},
         {"collective", collectiveTypeName(logs[t].table.collective)},
         {"ranks", logs[t].table.ranks() ? nlohmann::ordered_json(*logs[t].table.ranks()) : nlohmann::ordered_json()},
         {"gpus_per_thread", logs[t].table.gpusPerThread},
         {"rows", rows}});
  }
  j["tables"] = tables;
  j["error"] = {{"below_1MiB", std::exp(fit.errorSmall)},
                {"1MiB_to_256MiB", std::exp(fit.errorMedium)},
                {"from_256MiB", std::exp(fit.errorLarge)}};
  return base::jsonDocument(j);
}

}  // namespace ccforge::calibrate
