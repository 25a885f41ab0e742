#include "verify/baseline.hpp"

#include <algorithm>

#include "base/input_error.hpp"
#include "base/json_document.hpp"
#include "base/json_locations.hpp"
#include "base/load_file.hpp"
#include "base/output_file.hpp"

namespace ccforge::verify {
namespace {

constexpr std::string_view kFormat = "ccforge-baseline/1";

}  // namespace

Baseline Baseline::read(const std::filesystem::path& path) {
  Baseline b;
  b.source_ = path.string();
  const std::string text = base::loadFile(path);
  const base::LocatedJson doc = base::parseLocatedJson(text, b.source_);
  const auto fail = [&](const std::string& pointer, const std::string& message) {
    throw base::InputError(b.source_, doc.locations->at(pointer), message);
  };
  const nlohmann::json& root = doc.root;
  if (!root.is_object() || !root.contains("format") || root["format"] != kFormat)
    fail("", "not a ccforge baseline (expected \"format\": \"" + std::string(kFormat) + "\")");
  if (!root.contains("findings") || !root["findings"].is_array()) fail("", "a baseline has a \"findings\" array");
  const nlohmann::json& findings = root["findings"];
  for (size_t i = 0; i < findings.size(); ++i) {
    const std::string at = base::JsonLocations::child("/findings", i);
    const nlohmann::json& f = findings[i];
    std::string parts[3];
    const char* keys[3] = {"file", "rule", "message"};
    if (!f.is_object() || f.size() != 3) fail(at, "a finding is an object with \"file\", \"rule\" and \"message\"");
    for (int k = 0; k < 3; ++k) {
      if (!f.contains(keys[k]) || !f[keys[k]].is_string())
        fail(at, std::string("a finding is an object with \"file\", \"rule\" and \"message\" (no string \"") + keys[k] +
                     "\")");
      parts[k] = f[keys[k]].get<std::string>();
    }
    ++b.counts_[{parts[0], parts[1], parts[2]}];
  }
  return b;
}

size_t Baseline::accepted(const std::string& file, const std::string& rule, const std::string& message) const {
  const auto it = counts_.find({file, rule, message});
  return it == counts_.end() ? 0 : it->second;
}

void writeBaseline(const std::filesystem::path& path, const std::vector<FileReport>& reports) {
  std::vector<std::tuple<std::string, std::string, std::string>> entries;
  for (const FileReport& r : reports)
    for (const Violation& v : r.violations)
      if (!v.suppression || v.suppression->kind == SuppressionKind::External)
        entries.emplace_back(v.file, v.rule, v.message);
  std::sort(entries.begin(), entries.end());
  nlohmann::ordered_json doc;
  doc["format"] = kFormat;
  doc["findings"] = nlohmann::ordered_json::array();
  for (const auto& [file, rule, message] : entries)
    doc["findings"].push_back({{"file", file}, {"rule", rule}, {"message", message}});
  base::writeOutputFile(path, base::jsonDocument(doc));
}

}  // namespace ccforge::verify
