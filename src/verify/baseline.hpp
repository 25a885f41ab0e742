// A baseline: the findings a gate accepted when it was adopted (`verify --write-baseline FILE`),
// so that only new findings fail it (`verify --baseline FILE`). A finding is matched by its file
// (as the command line named it), rule and message, not by line, so that edits elsewhere in the
// file keep it matched; a baseline entry matches as many findings as it was written for.
// Matched findings are reported as suppressed (SARIF kind "external"). docs/verify.md, "Rule
// control".
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "verify/report.hpp"

namespace ccforge::verify {

class Baseline {
 public:
  // Throws InputError (located) for a file that is not a ccforge baseline.
  static Baseline read(const std::filesystem::path& path);

  // How many findings with this file, rule and message the baseline accepts.
  size_t accepted(const std::string& file, const std::string& rule, const std::string& message) const;
  const std::string& source() const { return source_; }

 private:
  std::string source_;
  std::map<std::tuple<std::string, std::string, std::string>, size_t> counts_;
};

// The baseline of `reports`: every finding but those suppressed in their file (the findings of
// the baseline in use stay in), sorted. Throws OutputError.
void writeBaseline(const std::filesystem::path& path, const std::vector<FileReport>& reports);

}  // namespace ccforge::verify
