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
};

void writeText(std::ostream& out, const std::vector<FileReport>& reports, const RunInfo& run);
void writeJson(std::ostream& out, const std::vector<FileReport>& reports, const RunInfo& run);
void writeSarif(std::ostream& out, const std::vector<FileReport>& reports, const RunInfo& run);
// One SMT witness as a standalone JSON document (docs/smt.md, "Witnesses").
void writeWitness(std::ostream& out, const std::string& file, const Witness& witness);

}  // namespace ccforge::verify
