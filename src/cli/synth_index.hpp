// The index `synth -o DIR` writes beside its programs (docs/synth.md, "Output directories"):
// DIR/report/<topology>-<collective>.json, the run's JSON report without its timings and with
// each file named relative to DIR, so that a repeated run writes the same bytes. The executor loads every regular file at DIR's top
// level and skips sub-directories, so the index lives in report/.
#pragma once

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

#include "ir/output_file.hpp"

namespace ccforge::cli {

// <topology stem>-<collective>, a root spelled -ROOT: the stem of every file a run writes.
inline std::string synthFilePrefix(const std::string& topology, const std::string& collective) {
  std::string coll = collective;
  for (char& ch : coll)
    if (ch == ':') ch = '-';
  return std::filesystem::path(topology).stem().string() + "-" + coll;
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

// Writes the index for a run whose JSON report is `reportJson`; returns its path.
inline std::string writeSynthIndex(const std::string& directory, const std::string& topology,
                                   const std::string& collective, const std::string& reportJson) {
  nlohmann::ordered_json index = nlohmann::ordered_json::parse(reportJson);
  makeIndex(index);
  const std::filesystem::path report = std::filesystem::path(directory) / "report";
  std::error_code ec;
  std::filesystem::create_directories(report, ec);
  if (ec) throw OutputError(report.string() + ": cannot create the directory: " + ec.message());
  const std::filesystem::path path = report / (synthFilePrefix(topology, collective) + ".json");
  writeOutputFile(path, index.dump(2) + "\n");
  return path.string();
}

}  // namespace ccforge::cli
