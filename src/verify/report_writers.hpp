// Renders verification reports: human text, JSON (docs/verify-json.md) and SARIF 2.1.0.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "verify/report.hpp"

namespace ccforge::verify {

enum class ReportFormat { Text, Json, Sarif };
std::optional<ReportFormat> parseReportFormat(std::string_view name);

struct RunInfo {
  RunInfo() = default;
  RunInfo(std::string profileName, int code, std::string root = {})
      : profile(std::move(profileName)), exitCode(code), sourceRoot(std::move(root)) {}

  std::string profile;
  int exitCode = 0;
  // SARIF: the directory artifact URIs are relative to (%SRCROOT%); empty: the current directory.
  std::string sourceRoot;
  // Text: only the findings and the verdicts of files that are not verified (`verify --quiet`).
  bool quiet = false;
};

// Text: a rule's findings past the first kFindingsShownPerRule of a file are counted in one note
// (the JSON and SARIF reports keep every one).
constexpr size_t kFindingsShownPerRule = 5;
void writeText(std::ostream& out, const std::vector<FileReport>& reports, const RunInfo& run);
void writeJson(std::ostream& out, const std::vector<FileReport>& reports, const RunInfo& run);
void writeSarif(std::ostream& out, const std::vector<FileReport>& reports, const RunInfo& run);
// One SMT witness as a standalone JSON document (docs/smt.md, "Witnesses").
void writeWitness(std::ostream& out, const std::string& file, const Witness& witness);

}  // namespace ccforge::verify
