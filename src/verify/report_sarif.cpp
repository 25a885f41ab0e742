#include <fmt/format.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "base/json_document.hpp"
#include "verify/report_writers.hpp"
#include "verify/rules.hpp"

namespace ccforge::verify {
namespace {

using nlohmann::ordered_json;
namespace fs = std::filesystem;

constexpr const char* kSourceRoot = "%SRCROOT%";

// RFC 3986 percent-encoding of a path: unreserved characters and '/' stay.
std::string encodeUriPath(const std::string& path) {
  std::string out;
  for (unsigned char c : path) {
    bool keep = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
                c == '_' || c == '~' || c == '/';
    out += keep ? std::string(1, static_cast<char>(c)) : fmt::format("%{:02X}", c);
  }
  return out;
}

// Artifact locations are relative to the source root (%SRCROOT%, the directory verify ran in
// unless RunInfo names another), so that code scanning matches them to the checkout; a file
// outside it is reached with "../".
class Locations {
 public:
  explicit Locations(const std::string& sourceRoot) {
    std::error_code ec;
    root_ = sourceRoot.empty() ? fs::current_path(ec) : fs::absolute(sourceRoot, ec);
    root_ = root_.lexically_normal();
  }

  ordered_json physical(const std::string& file, base::TextLocation where, bool alwaysRegion = false) const {
    ordered_json loc{{"artifactLocation", {{"uri", relativeUri(file)}, {"uriBaseId", kSourceRoot}}}};
    if (where.known())
      loc["region"] = {{"startLine", where.line}, {"startColumn", where.column > 0 ? where.column : 1}};
    else if (alwaysRegion)
      loc["region"] = {{"startLine", 1}, {"startColumn", 1}};  // the file as a whole
    return loc;
  }

  ordered_json originalUriBaseIds() const {
    std::string root = root_.generic_string();
    if (root.empty() || root.back() != '/') root += '/';
    return {{kSourceRoot,
             {{"uri", "file://" + encodeUriPath(root)},
              {"description", {{"text", "The directory ccforge verify ran in; artifact URIs are relative to it."}}}}}};
  }

 private:
  std::string relativeUri(const std::string& file) const {
    fs::path p(file);
    fs::path absolute = (p.is_absolute() ? p : root_ / p).lexically_normal();
    fs::path relative = absolute.lexically_relative(root_);
    if (relative.empty()) relative = absolute.relative_path();  // another root name: never absolute
    std::string text = relative.generic_string();
    if (text.empty() || text == ".") text = ".";
    return encodeUriPath(text);
  }

  fs::path root_;
};

ordered_json result(const std::string& rule, const std::string& level, const std::string& message,
                    ordered_json location) {
  return {{"ruleId", rule},
          {"level", level},
          {"message", {{"text", message}}},
          {"locations", ordered_json::array({{{"physicalLocation", std::move(location)}}})}};
}

// One thread flow per thread block involved, its steps in the order the finding lists them.
ordered_json codeFlows(const Violation& v, const Locations& at) {
  std::map<std::pair<int32_t, int32_t>, ordered_json> flows;
  for (const StepRef& s : v.steps) {
    ordered_json& flow = flows[{s.rank, s.tb}];
    if (flow.is_null()) flow = {{"id", fmt::format("rank{}-tb{}", s.rank, s.tb)}, {"locations", ordered_json::array()}};
    std::string text = s.step >= 0 ? fmt::format("rank {} tb {} step {}", s.rank, s.tb, s.step)
                                   : fmt::format("rank {} tb {}", s.rank, s.tb);
    if (s.tile >= 0) text += fmt::format(" tile {}", s.tile);
    if (!s.role.empty()) text += ": " + s.role;
    ordered_json location{{"physicalLocation", at.physical(v.file, s.where)}, {"message", {{"text", text}}}};
    flow["locations"].push_back({{"location", location}});
  }
  ordered_json threadFlows = ordered_json::array();
  for (auto& [key, flow] : flows) threadFlows.push_back(flow);
  return ordered_json::array({{{"threadFlows", threadFlows}}});
}

}  // namespace

void writeSarif(std::ostream& out, const std::vector<FileReport>& reports, const RunInfo& run) {
  const Locations at(run.sourceRoot);
  std::map<std::string, std::string> rules;  // id -> the check it belongs to
  ordered_json results = ordered_json::array();
  for (const FileReport& r : reports) {
    if (!r.error.empty()) {
      const std::string rule = r.verdict == Verdict::Malformed ? "input.malformed" : "internal.error";
      rules.emplace(rule, "input");
      const std::string& message = r.errorMessage.empty() ? r.error : r.errorMessage;
      results.push_back(
          result(rule, "error", message, at.physical(r.errorFile.empty() ? r.file : r.errorFile, r.errorWhere, true)));
      continue;
    }
    for (const Violation& v : r.violations) {
      rules.emplace(v.rule, std::string(checkName(v.check)));
      std::string text = v.message;
      for (const std::string& e : v.evidence) text += "\n" + e;
      ordered_json res =
          result(v.rule, v.severity == Severity::Error ? "error" : "warning", text, at.physical(v.file, v.where, true));
      if (!v.steps.empty()) res["codeFlows"] = codeFlows(v, at);
      if (v.suppression)
        res["suppressions"] = ordered_json::array({{{"kind", suppressionKindName(v.suppression->kind)},
                                                    {"status", "accepted"},
                                                    {"justification", v.suppression->justification}}});
      results.push_back(std::move(res));
    }
  }
  ordered_json ruleList = ordered_json::array();
  for (const auto& [id, check] : rules) {
    const RuleInfo* info = findRule(id);
    const std::string summary = info ? std::string(info->summary) : "ccforge " + check + " check: " + id;
    const std::string helpUri = ruleHelpUri(id);
    ruleList.push_back(
        {{"id", id},
         {"name", id},
         {"shortDescription", {{"text", "ccforge " + check + " check: " + id}}},
         {"fullDescription", {{"text", summary}}},
         {"helpUri", helpUri},
         {"help",
          {{"text", summary + " See " + helpUri + "."}, {"markdown", summary + " [Rule reference](" + helpUri + ")"}}},
         {"properties", {{"helpPath", ruleHelpPath(id)}, {"tags", ordered_json::array({"msccl", check})}}}});
  }
  ordered_json sarif{
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs",
       ordered_json::array({{{"tool",
                              {{"driver",
                                {{"name", "ccforge"},
                                 {"version", std::string(toolVersion())},
                                 {"semanticVersion", std::string(toolVersion())},
                                 {"informationUri", std::string(projectUrl())},
                                 {"rules", ruleList}}}}},
                             {"invocations", ordered_json::array({{{"executionSuccessful", run.exitCode != 6},
                                                                   {"exitCode", run.exitCode},
                                                                   {"properties", {{"profile", run.profile}}}}})},
                             {"originalUriBaseIds", at.originalUriBaseIds()},
                             {"results", results}}})}};
  out << base::jsonDocument(sarif);
}

}  // namespace ccforge::verify
