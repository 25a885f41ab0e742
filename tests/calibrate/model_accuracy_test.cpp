// The performance model before any calibration against every public nccl-tests log of
// tests/fixtures/nccl-tests-logs (issue 24's bands; docs/benchmarks.md has the table): NCCL's
// predicted busbw within 0.8-1.25x of measured from 256 MiB and 0.67-1.5x at 1-16 MiB, the
// library ring on NCCL's rings within 0.75-1.33x of NCCL's measured ring from 256 MiB.
#include <catch2/catch.hpp>

#include <filesystem>
#include <set>

#include "support/model_accuracy.hpp"

using namespace ccforge;

TEST_CASE("model accuracy: every modelled public log within its bands, uncalibrated") {
  const std::vector<test::FixtureLog> logs = test::fixtureLogs();
  int modelled = 0;
  std::set<std::string> machines;
  for (const test::FixtureLog& log : logs) {
    if (!log.modelled) continue;
    ++modelled;
    machines.insert(log.topology);
    INFO(log.file << " on " << log.topology);
    const test::LogAccuracy a = test::logAccuracy(log);
    CHECK(a.ringError.empty());
    for (const test::RowAccuracy& r : a.rows) {
      INFO(r.bytes << " B: " << r.choice << ", predicted / measured busbw " << r.ratio);
      if (r.bytes >= 256 * test::kMiB) {
        CHECK(r.ratio >= 0.8);
        CHECK(r.ratio <= 1.25);
      }
      if (r.bytes >= test::kMiB && r.bytes <= 16 * test::kMiB) {
        CHECK(r.ratio >= 0.67);
        CHECK(r.ratio <= 1.5);
      }
      if (r.ringRatio) {
        CHECK(*r.ringRatio >= 0.75);
        CHECK(*r.ringRatio <= 1.33);
      }
    }
  }
  CHECK(modelled >= 12);
  // One NVSwitch box of A100 and of H100, a DGX-1, a PCIe box, and boxes on rails.
  for (const char* m : {"a100-1", "h100-1", "dgx1", "machines/rtx4090-8-pcie.json", "h100-2", "a100-2"})
    CHECK(machines.count(m) == 1);
}

TEST_CASE("model accuracy: the manifest names every log file, each under the folder its kind says") {
  std::set<std::string> named;
  for (const test::FixtureLog& log : test::fixtureLogs()) {
    named.insert(log.file);
    CHECK(std::filesystem::exists(test::kLogsDirectory + "/" + log.file));
    CHECK((log.file.rfind("calibration-only/", 0) == 0) == !log.modelled);
    if (!log.modelled) CHECK_FALSE(log.why.empty());
  }
  for (const std::string& dir : {std::string(), std::string("calibration-only/")})
    for (const auto& e : std::filesystem::directory_iterator(test::kLogsDirectory + "/" + dir))
      if (e.path().extension() == ".txt") CHECK(named.count(dir + e.path().filename().string()) == 1);
}
