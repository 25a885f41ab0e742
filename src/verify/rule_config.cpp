#include "verify/rule_config.hpp"

#include <stdexcept>
#include <system_error>

#include "base/input_error.hpp"
#include "base/json_locations.hpp"
#include "base/load_file.hpp"

namespace ccforge::verify {

std::optional<std::filesystem::path> findRuleConfig(const std::filesystem::path& verified) {
  std::error_code ec;
  std::filesystem::path dir = std::filesystem::absolute(verified, ec);
  if (ec) return std::nullopt;
  if (!std::filesystem::is_directory(dir, ec)) dir = dir.parent_path();
  for (;;) {
    const std::filesystem::path candidate = dir / kRuleConfigName;
    if (std::filesystem::is_regular_file(candidate, ec)) return candidate;
    if (dir == dir.root_path() || dir.empty()) return std::nullopt;
    dir = dir.parent_path();
  }
}

RuleConfig readRuleConfig(const std::filesystem::path& path) {
  RuleConfig config;
  config.source = path;
  const std::string source = path.string();
  const std::string text = base::loadFile(path);
  const base::LocatedJson doc = base::parseLocatedJson(text, source);
  const auto fail = [&](const std::string& pointer, const std::string& message) {
    throw base::InputError(source, doc.locations->at(pointer), message);
  };
  if (!doc.root.is_object()) fail("", "a ccforge configuration is a JSON object");
  for (const auto& [key, value] : doc.root.items())
    if (key != "verify") fail(base::JsonLocations::child("", key), "unknown key \"" + key + "\" (known: verify)");
  if (!doc.root.contains("verify")) return config;
  const nlohmann::json& verify = doc.root["verify"];
  if (!verify.is_object()) fail("/verify", "\"verify\" is an object");
  for (const auto& [key, value] : verify.items()) {
    const std::string at = base::JsonLocations::child("/verify", key);
    if (key == "baseline") {
      if (!value.is_string() || value.get<std::string>().empty()) fail(at, "\"baseline\" is a file name");
      config.baseline = path.parent_path() / value.get<std::string>();
      continue;
    }
    std::optional<RuleAction> action;
    if (key == "disable") action = RuleAction::Disable;
    if (key == "warn") action = RuleAction::Warn;
    if (key == "error") action = RuleAction::Error;
    if (!action) fail(at, "unknown key \"" + key + "\" (known: disable, warn, error, baseline)");
    if (!value.is_array()) fail(at, "\"" + key + "\" is an array of rule ids or groups");
    for (size_t i = 0; i < value.size(); ++i) {
      const std::string item = base::JsonLocations::child(at, i);
      if (!value[i].is_string()) fail(item, "expected a rule id or group");
      try {
        config.overrides.set(value[i].get<std::string>(), *action);
      } catch (const std::invalid_argument& e) {
        fail(item, e.what());
      }
    }
  }
  return config;
}

}  // namespace ccforge::verify
