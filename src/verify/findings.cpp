#include "verify/findings.hpp"

#include "verify/rules.hpp"

namespace ccforge::verify {

std::optional<Suppression> Findings::suppressionFor(const Violation& v) {
  if (suppressions_)
    for (const ir::RuleSuppression& s : *suppressions_)
      if (patternCovers(s.rule, v.rule)) return Suppression{SuppressionKind::InSource, s.reason};
  if (baseline_) {
    size_t& used = baselineUsed_[{v.file, v.rule, v.message}];
    if (used < baseline_->accepted(v.file, v.rule, v.message)) {
      ++used;
      return Suppression{SuppressionKind::External, "accepted in the baseline " + baseline_->source()};
    }
  }
  return std::nullopt;
}

void Findings::add(Violation v) {
  if (v.file.empty()) v.file = file_;
  if (const std::optional<RuleAction> action = overrides_ ? overrides_->actionFor(v.rule) : std::nullopt) {
    if (*action == RuleAction::Disable) {
      ++disabledByRule_[v.rule];
      return;
    }
    v.severity = *action == RuleAction::Warn ? Severity::Warning : Severity::Error;
  }
  v.suppression = suppressionFor(v);
  if (v.severity == Severity::Error) ++errorsByCheck_[v.check];
  if (++countByRule_[v.rule] <= maxPerRule_) listed_.push_back(std::move(v));
}

void Findings::error(Check check, std::string rule, base::TextLocation where, std::string message,
                     std::vector<StepRef> steps, std::vector<std::string> evidence) {
  add(Violation{check, Severity::Error, std::move(rule), std::move(message), file_, where, std::move(steps),
                std::move(evidence), std::nullopt});
}

void Findings::warning(Check check, std::string rule, base::TextLocation where, std::string message) {
  add(Violation{check, Severity::Warning, std::move(rule), std::move(message), file_, where, {}, {}, std::nullopt});
}

bool Findings::hasErrors(Check check) const {
  auto it = errorsByCheck_.find(check);
  return it != errorsByCheck_.end() && it->second > 0;
}

bool Findings::hasErrors() const {
  for (const auto& [check, n] : errorsByCheck_)
    if (n > 0) return true;
  return false;
}

void Findings::moveInto(FileReport& report) {
  for (Violation& v : listed_) report.violations.push_back(std::move(v));
  listed_.clear();
  for (const auto& [rule, n] : countByRule_)
    if (n > maxPerRule_)
      report.notes.push_back(std::to_string(n - maxPerRule_) + " more findings of rule " + rule + " not listed (" +
                             std::to_string(n) + " in all)");
  for (const auto& [rule, n] : disabledByRule_)
    report.notes.push_back(std::to_string(n) + (n == 1 ? " finding" : " findings") + " of rule " + rule +
                           " not reported (disabled by --disable or the configuration file)");
}

}  // namespace ccforge::verify
