// A configuration file for `verify`'s rules, as linters have one: `.ccforge.json`, found from a
// verified path's folder upward (`--config FILE` names one, `--no-config` ignores them):
//   {"verify": {"disable": [RULE, ...], "warn": [...], "error": [...], "baseline": "FILE"}}
// RULE is a rule id or a group; the baseline path is relative to the file's folder. The command
// line's --disable/--warn/--error win over the file's. docs/verify.md, "Rule control".
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "verify/rule_overrides.hpp"

namespace ccforge::verify {

inline constexpr std::string_view kRuleConfigName = ".ccforge.json";

struct RuleConfig {
  std::filesystem::path source;
  RuleOverrides overrides;
  std::optional<std::filesystem::path> baseline;
};

// The nearest `.ccforge.json` in the folder of `verified` (the folder itself for a directory)
// or above it; nullopt when there is none up to the file system's root.
std::optional<std::filesystem::path> findRuleConfig(const std::filesystem::path& verified);

// Throws InputError (located) for malformed JSON, unknown keys and names of no rule.
RuleConfig readRuleConfig(const std::filesystem::path& path);

}  // namespace ccforge::verify
