#include <fmt/format.h>

#include <map>
#include <nlohmann/json.hpp>

#include "verify/report_writers.hpp"
#include "verify/rules.hpp"

namespace ccforge::verify {
namespace {

using nlohmann::ordered_json;

ordered_json physicalLocation(const std::string& file, ir::TextLocation where) {
  ordered_json loc{{"artifactLocation", {{"uri", file}}}};
  if (where.known()) loc["region"] = {{"startLine", where.line}, {"startColumn", where.column}};
  return loc;
}

ordered_json result(const std::string& rule, const std::string& level, const std::string& message,
                    const std::string& file, ir::TextLocation where) {
  return {{"ruleId", rule},
          {"level", level},
          {"message", {{"text", message}}},
          {"locations", ordered_json::array({{{"physicalLocation", physicalLocation(file, where)}}})}};
}

// One thread flow per thread block involved, its steps in the order the finding lists them.
ordered_json codeFlows(const Violation& v) {
  std::map<std::pair<int32_t, int32_t>, ordered_json> flows;
  for (const StepRef& s : v.steps) {
    ordered_json& flow = flows[{s.rank, s.tb}];
    if (flow.is_null()) flow = {{"id", fmt::format("rank{}-tb{}", s.rank, s.tb)}, {"locations", ordered_json::array()}};
    std::string text = s.step >= 0 ? fmt::format("rank {} tb {} step {}", s.rank, s.tb, s.step)
                                   : fmt::format("rank {} tb {}", s.rank, s.tb);
    if (s.tile >= 0) text += fmt::format(" tile {}", s.tile);
    if (!s.role.empty()) text += ": " + s.role;
    ordered_json location{{"physicalLocation", physicalLocation(v.file, s.where)}, {"message", {{"text", text}}}};
    flow["locations"].push_back({{"location", location}});
  }
  ordered_json threadFlows = ordered_json::array();
  for (auto& [key, flow] : flows) threadFlows.push_back(flow);
  return ordered_json::array({{{"threadFlows", threadFlows}}});
}

}  // namespace

void writeSarif(std::ostream& out, const std::vector<FileReport>& reports, const RunInfo& run) {
  std::map<std::string, std::string> rules;  // id -> the check it belongs to
  ordered_json results = ordered_json::array();
  for (const FileReport& r : reports) {
    if (!r.error.empty()) {
      rules.emplace(r.verdict == Verdict::Malformed ? "input.malformed" : "internal.error", "input");
      results.push_back(result(r.verdict == Verdict::Malformed ? "input.malformed" : "internal.error", "error", r.error,
                               r.file, {}));
      continue;
    }
    for (const Violation& v : r.violations) {
      rules.emplace(v.rule, std::string(checkName(v.check)));
      std::string text = v.message;
      for (const std::string& e : v.evidence) text += "\n" + e;
      ordered_json res = result(v.rule, v.severity == Severity::Error ? "error" : "warning", text, v.file, v.where);
      if (!v.steps.empty()) res["codeFlows"] = codeFlows(v);
      results.push_back(std::move(res));
    }
  }
  ordered_json ruleList = ordered_json::array();
  for (const auto& [id, check] : rules) {
    const RuleInfo* info = findRule(id);
    const std::string summary = info ? std::string(info->summary) : "ccforge " + check + " check: " + id;
    ruleList.push_back({{"id", id},
                        {"shortDescription", {{"text", "ccforge " + check + " check: " + id}}},
                        {"fullDescription", {{"text", summary}}},
                        {"help", {{"text", summary + " See " + ruleHelpPath(id) + "."}}},
                        {"properties", {{"helpPath", ruleHelpPath(id)}}}});
  }
  ordered_json sarif{
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs",
       ordered_json::array({{{"tool",
                              {{"driver",
                                {{"name", "ccforge"},
                                 {"version", "0.1.0"},
                                 {"rules", ruleList}}}}},
                             {"invocations", ordered_json::array({{{"executionSuccessful", run.exitCode != 6},
                                                                   {"exitCode", run.exitCode},
                                                                   {"properties", {{"profile", run.profile}}}}})},
                             {"results", results}}})}};
  out << sarif.dump(2) << "\n";
}

}  // namespace ccforge::verify
