// Collects violations for one file, listing at most a fixed number per rule (a broken generator
// repeats one mistake thousands of times) and counting the rest.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "verify/report.hpp"
#include "verify/rule_overrides.hpp"

namespace ccforge::verify {

class Findings {
 public:
  Findings(std::string file, size_t maxPerRule, const RuleOverrides* overrides = nullptr)
      : file_(std::move(file)), maxPerRule_(maxPerRule), overrides_(overrides) {}

  void add(Violation v);
  void error(Check check, std::string rule, ir::TextLocation where, std::string message,
             std::vector<StepRef> steps = {}, std::vector<std::string> evidence = {});
  void warning(Check check, std::string rule, ir::TextLocation where, std::string message);

  bool hasErrors(Check check) const;
  bool hasErrors() const;
  const std::string& file() const { return file_; }
  // Moves the listed violations into `report` and notes how many were left out per rule.
  void moveInto(FileReport& report);

 private:
  std::string file_;
  size_t maxPerRule_;
  const RuleOverrides* overrides_;
  std::map<std::string, size_t> disabledByRule_;
  std::vector<Violation> listed_;
  std::map<std::string, size_t> countByRule_;
  std::map<Check, size_t> errorsByCheck_;
};

}  // namespace ccforge::verify
