// The public nccl-tests logs of tests/fixtures/nccl-tests-logs and the machine each ran on, as
// its manifest logs.json lists them (README.md there names each source).
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "calibrate/fit.hpp"
#include "calibrate/nccl_tests_log.hpp"
#include "base/load_file.hpp"
#include "topology/catalog.hpp"
#include "topology/spec_reader.hpp"

namespace ccforge::test {

inline const std::string kLogsDirectory = std::string(CCFORGE_FIXTURES) + "/nccl-tests-logs";

struct FixtureLog {
  std::string file;      // under kLogsDirectory
  std::string topology;  // a catalog name, or a spec path under kLogsDirectory
  std::vector<std::string> environment;
  std::optional<semantics::CollectiveType> collective;  // where the log does not name it
  // Whether the model is held to the bands before calibration on it; where not, why (the log then
  // lies under calibration-only/).
  bool modelled = true;
  std::string why;
};

inline std::vector<FixtureLog> fixtureLogs() {
  const nlohmann::json manifest = nlohmann::json::parse(base::loadFile(kLogsDirectory + "/logs.json"));
  std::vector<FixtureLog> out;
  for (const nlohmann::json& l : manifest.at("logs"))
    out.push_back({l.at("file").get<std::string>(), l.at("topology").get<std::string>(),
                   l.at("env").get<std::vector<std::string>>(),
                   l.contains("collective") ? semantics::parseCollectiveType(l.at("collective").get<std::string>())
                                            : std::nullopt,
                   !l.contains("calibration_only"), l.value("calibration_only", std::string())});
  return out;
}

inline topo::Topology fixtureTopology(const FixtureLog& log) {
  return topo::catalogSpec(log.topology) ? topo::loadTopology(log.topology)
                                         : topo::loadTopology(kLogsDirectory + "/" + log.topology);
}

inline std::vector<calibrate::LogInput> fixtureTables(const FixtureLog& log) {
  const std::string path = kLogsDirectory + "/" + log.file;
  std::vector<calibrate::LogInput> out;
  for (calibrate::NcclTestsTable& t : calibrate::readNcclTestsLog(base::loadFile(path), path, log.collective))
    out.push_back({std::move(t), log.environment});
  return out;
}

}  // namespace ccforge::test
