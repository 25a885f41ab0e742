// What the user asked of individual rules (`verify --disable/--warn/--error RULE`, or a
// configuration file: rule_config.hpp), as linters
// have it: a rule id such as "selection.ambiguous", or a group such as "selection" for every
// rule of that check. A finding of a disabled rule is dropped (and counted in a note); --warn
// and --error set its severity, so a warning no longer fails the verdict and an error does.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace ccforge::verify {

enum class RuleAction { Disable, Warn, Error };

class RuleOverrides {
 public:
  // Throws std::invalid_argument for a pattern that names no rule or group of the catalogue, and
  // for a pattern given two different actions.
  void set(const std::string& pattern, RuleAction action);
  // Sets every pattern of `other` to its action there (the command line over a configuration file).
  void overrideWith(const RuleOverrides& other);
  // An exact rule id wins over its group.
  std::optional<RuleAction> actionFor(std::string_view rule) const;
  bool empty() const { return byPattern_.empty(); }

 private:
  std::map<std::string, RuleAction, std::less<>> byPattern_;
};

std::string_view ruleActionName(RuleAction action);  // "--disable", "--warn", "--error"

}  // namespace ccforge::verify
