#include "verify/rule_overrides.hpp"

#include <stdexcept>

#include "verify/rules.hpp"

namespace ccforge::verify {

std::string_view ruleActionName(RuleAction action) {
  switch (action) {
    case RuleAction::Disable: return "--disable";
    case RuleAction::Warn: return "--warn";
    case RuleAction::Error: return "--error";
  }
  return "";
}

void RuleOverrides::set(const std::string& pattern, RuleAction action) {
  if (!namesRuleOrGroup(pattern))
    throw std::invalid_argument(std::string(ruleActionName(action)) + " " + pattern +
                                ": no rule or group of rules has this name (docs/verify.md, \"Rule reference\")");
  const auto [it, inserted] = byPattern_.emplace(pattern, action);
  if (!inserted && it->second != action)
    throw std::invalid_argument(pattern + " is given both " + std::string(ruleActionName(it->second)) + " and " +
                                std::string(ruleActionName(action)));
}

void RuleOverrides::overrideWith(const RuleOverrides& other) {
  for (const auto& [pattern, action] : other.byPattern_) byPattern_[pattern] = action;
}

std::optional<RuleAction> RuleOverrides::actionFor(std::string_view rule) const {
  if (auto it = byPattern_.find(rule); it != byPattern_.end()) return it->second;
  const size_t dot = rule.find('.');
  if (dot == std::string_view::npos) return std::nullopt;
  if (auto it = byPattern_.find(rule.substr(0, dot)); it != byPattern_.end()) return it->second;
  return std::nullopt;
}

}  // namespace ccforge::verify
