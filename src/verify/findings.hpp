// Collects violations for one file, listing at most a fixed number per rule (a broken generator
// repeats one mistake thousands of times) and counting the rest. The user's rule control applies
// here (docs/verify.md, "Rule control"): --disable/--warn/--error and the configuration file
// first, then the file's suppression comments, then the baseline; a suppressed finding is listed
// with its suppression, fails its check, and counts in the verdict as neither error nor warning.
#pragma once

#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "ir/model.hpp"
#include "verify/options.hpp"
#include "verify/report.hpp"

namespace ccforge::verify {

class Findings {
 public:
  // The rule control of `options`; `suppressions`: the file's suppression comments (nullptr for
  // none). Both must outlive this.
  Findings(std::string file, const Options& options, const std::vector<ir::RuleSuppression>* suppressions = nullptr)
      : file_(std::move(file)),
        maxPerRule_(options.maxReportedPerRule),
        overrides_(&options.ruleOverrides),
        baseline_(options.baseline.get()),
        suppressions_(suppressions) {}
  // Without rule control (scratch findings, tests).
  Findings(std::string file, size_t maxPerRule, const RuleOverrides* overrides = nullptr)
      : file_(std::move(file)), maxPerRule_(maxPerRule), overrides_(overrides) {}

  void add(Violation v);
  void error(Check check, std::string rule, base::TextLocation where, std::string message,
             std::vector<StepRef> steps = {}, std::vector<std::string> evidence = {});
  void warning(Check check, std::string rule, base::TextLocation where, std::string message);

  // Errors found, suppressed ones included: the check failed (the report's verdict leaves the
  // suppressed ones out).
  bool hasErrors(Check check) const;
  bool hasErrors() const;
  const std::string& file() const { return file_; }
  // Moves the listed violations into `report` and notes how many were left out per rule.
  void moveInto(FileReport& report);

 private:
  std::optional<Suppression> suppressionFor(const Violation& v);

  std::string file_;
  size_t maxPerRule_;
  const RuleOverrides* overrides_;
  const Baseline* baseline_ = nullptr;
  const std::vector<ir::RuleSuppression>* suppressions_ = nullptr;
  std::map<std::tuple<std::string, std::string, std::string>, size_t> baselineUsed_;
  std::map<std::string, size_t> disabledByRule_;
  std::vector<Violation> listed_;
  std::map<std::string, size_t> countByRule_;
  std::map<Check, size_t> errorsByCheck_;
};

}  // namespace ccforge::verify
