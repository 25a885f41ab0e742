// The catalogue of verification rules: every rule id a finding can carry, the check it belongs
// to, and what it means. Reports take their SARIF rule metadata from here, and docs/verify.md has
// a section per rule (its "Rule reference", anchored by the id); a test keeps the three in step
// with the ids the sources emit.
#pragma once

#include <string_view>
#include <vector>

#include "verify/report.hpp"

namespace ccforge::verify {

struct RuleInfo {
  std::string_view id;
  Check check;
  std::string_view summary;  // one sentence: what a finding of this rule means
};

const std::vector<RuleInfo>& ruleCatalogue();
// nullptr for an id not in the catalogue.
const RuleInfo* findRule(std::string_view id);
// A rule id of the catalogue, or a group: the part before the dot of some ids ("selection").
bool namesRuleOrGroup(std::string_view pattern);
// `pattern` (a rule id or a group) names `rule`.
bool patternCovers(std::string_view pattern, std::string_view rule);
// Where docs/verify.md explains the rule (relative to the repository root).
std::string ruleHelpPath(std::string_view id);
// The same section on the project's site: projectUrl() + "/blob/main/" + ruleHelpPath(id).
std::string ruleHelpUri(std::string_view id);

// ccforge's version and its project URL (project() in the top-level CMakeLists.txt).
std::string_view toolVersion();
std::string_view projectUrl();

}  // namespace ccforge::verify
