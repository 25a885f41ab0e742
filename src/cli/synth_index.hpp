// The index `synth -o DIR` writes beside its programs (docs/synth.md, "Output directories"):
// DIR/report/<topology>[-<group>]-<collective>.json, the run's JSON report without its timings and with
// each file named relative to DIR, so that a repeated run writes the same bytes. The executor loads every regular file
// at DIR's top level and skips sub-directories, so the index lives in report/.
#pragma once

#include <nlohmann/json.hpp>

#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "base/json_document.hpp"
#include "base/output_file.hpp"

namespace ccforge::cli {

// <topology stem>[-<process group tag>]-<collective>, a root spelled -ROOT: the stem of every file
// a run writes.
inline std::string synthFilePrefix(const std::string& topology, const std::string& collective,
                                   const std::string& groupTag = "") {
  std::string coll = collective;
  for (char& ch : coll)
    if (ch == ':') ch = '-';
  return std::filesystem::path(topology).stem().string() + (groupTag.empty() ? "" : "-" + groupTag) + "-" + coll;
}

inline void makeIndex(nlohmann::ordered_json& j) {
  if (j.is_object()) {
    j.erase("seconds");
    if (j.contains("file") && j["file"].is_string())
      j["file"] = std::filesystem::path(j["file"].get<std::string>()).filename().string();
    for (auto& [key, value] : j.items()) makeIndex(value);
  } else if (j.is_array()) {
    for (auto& value : j) makeIndex(value);
  }
}

// A program a `synth -o` run found and did not write, and why (its deployment's reason).
struct NotWritten {
  std::string program;  // "(C,S,R) = (2,2,3) in-place", "hierarchical composition"
  std::string why;
};

// A `synth -o DIR` run that writes no program file still exits with the code of what it found (0
// when that verifies: docs/exit-codes.md), but never silently: the warning names DIR and says,
// for each program found, why it was not written (none found: `nothingFound`). The same lines go
// to stderr ("ccforge synth: warning: ...") and into the report's "warnings". Empty when a file
// was written or no -o was given.
inline std::vector<std::string> nothingWrittenWarnings(const std::string& directory, size_t filesWritten,
                                                       const std::vector<NotWritten>& programs,
                                                       const std::string& nothingFound) {
  if (directory.empty() || filesWritten > 0) return {};
  if (programs.empty()) return {"no file written to " + directory + ": " + nothingFound};
  std::vector<std::string> out{"no file written to " + directory + ": " +
                               (programs.size() == 1 ? std::string("the program found cannot be deployed there")
                                                     : "none of the " + std::to_string(programs.size()) +
                                                           " programs found can be deployed there")};
  for (const NotWritten& p : programs) out.push_back(p.program + ": not written: " + p.why);
  return out;
}

inline void printWarnings(std::ostream& err, const std::vector<std::string>& warnings) {
  for (const std::string& w : warnings) err << "ccforge synth: warning: " << w << "\n";
}

// A run's JSON report with what -o wrote: "files_written" (the program files) and "warnings"
// (nothingWrittenWarnings); unchanged without -o.
inline std::string withOutputSummary(const std::string& reportJson, const std::string& directory, size_t filesWritten,
                                     const std::vector<std::string>& warnings) {
  if (directory.empty()) return reportJson;
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(reportJson);
  j["files_written"] = filesWritten;
  j["warnings"] = warnings;
  return base::jsonDocument(j);
}

// Writes the index for a run whose JSON report is `reportJson`; returns its path.
inline std::string writeSynthIndex(const std::string& directory, const std::string& filePrefix,
                                   const std::string& reportJson) {
  nlohmann::ordered_json index = nlohmann::ordered_json::parse(reportJson);
  makeIndex(index);
  const std::filesystem::path report = std::filesystem::path(directory) / "report";
  std::error_code ec;
  std::filesystem::create_directories(report, ec);
  if (ec) throw base::OutputError(report.string() + ": cannot create the directory: " + ec.message());
  const std::filesystem::path path = report / (filePrefix + ".json");
  base::writeOutputFile(path, base::jsonDocument(index));
  return path.string();
}

}  // namespace ccforge::cli
