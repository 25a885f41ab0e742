// `calibrate` (calibrate/fit.hpp) on public logs: fitted to one log of a machine, the model
// predicts that log within 0.9-1.1x from 1 MiB and another collective of the same machine within
// 0.8-1.25x (issue 24); the spec it writes reads back with its calibration.
#include <catch2/catch.hpp>

#include <cmath>

#include "calibrate/calibrated_spec.hpp"
#include "calibrate/fit.hpp"
#include "base/input_error.hpp"
#include "support/nccl_tests_logs.hpp"
#include "topology/catalog.hpp"

using namespace ccforge;

namespace {

test::FixtureLog logNamed(const std::string& file) {
  for (const test::FixtureLog& l : test::fixtureLogs())
    if (l.file == file) return l;
  FAIL("no fixture log " << file);
  return {};
}

// `topology` with its calibration replaced by `c`, as `calibrate -o` writes it.
topo::Topology calibrated(const std::string& catalogName, const topo::Calibration& c) {
  return topo::readTopology(calibrate::calibratedSpec(*topo::catalogSpec(catalogName), "", c), "calibrated.json", {});
}

void checkRows(const calibrate::FitResult& r, double lo, double hi, uint64_t from) {
  for (const calibrate::RowFit& row : r.rows) {
    if (row.bytes < from) continue;
    INFO(row.bytes << " B: predicted " << row.predictedUs << " us, measured " << row.measuredUs << " us (" << row.choice
                   << ")");
    CHECK(row.predictedUs / row.measuredUs >= lo);
    CHECK(row.predictedUs / row.measuredUs <= hi);
  }
}

constexpr uint64_t kMiB = uint64_t{1} << 20;

}  // namespace

TEST_CASE("calibrate: H100 box fitted on its allreduce predicts that log, and its allgather, reducescatter, alltoall") {
  const test::FixtureLog allreduce = logNamed("h100-1x8-allreduce-nccl2.29.txt");
  const topo::Topology h100 = test::fixtureTopology(allreduce);
  const calibrate::FitResult fit = calibrate::fitCalibration(h100, test::fixtureTables(allreduce));
  checkRows(fit, 0.9, 1.1, kMiB);
  // The log's calls are all from 32 MiB: it says nothing about the per-call floor or the network.
  for (const calibrate::ParameterFit& p : fit.parameters)
    if (p.key == "launch_us" || p.key == "network_efficiency") CHECK_FALSE(p.determined);
  const topo::Topology fitted = calibrated("h100-1", fit.calibration);
  REQUIRE(fitted.calibration);
  CHECK(fitted.calibration->logs.size() == 1);
  for (const char* other :
       {"h100-1x8-allgather-nccl2.29.txt", "h100-1x8-reducescatter-nccl2.29.txt", "h100-1x8-alltoall-nccl2.29.txt"}) {
    INFO(other);
    checkRows(calibrate::compareWithLogs(fitted, test::fixtureTables(logNamed(other))), 0.8, 1.25, kMiB);
  }
}

// An older NCCL (this log predates nccl-tests' August 2022 columns; it runs -g 8 as GROUP launch):
// the fit moves its protocol crossovers and LL/LL128 rates to match. Its allgather is not checked:
// that NCCL's medium allgathers are 1.3-1.4x slower against its allreduce than 2.30's model says.
TEST_CASE("calibrate: an old-NCCL A100 box fitted on its allreduce predicts it; the fit is deterministic") {
  const test::FixtureLog allreduce = logNamed("a100-40g-1x8-allreduce-superbench.txt");
  const topo::Topology a100 = test::fixtureTopology(allreduce);
  const calibrate::FitResult fit = calibrate::fitCalibration(a100, test::fixtureTables(allreduce));
  checkRows(fit, 0.9, 1.1, kMiB);
  const calibrate::FitResult again = calibrate::fitCalibration(a100, test::fixtureTables(allreduce));
  CHECK(calibrate::calibratedSpec(*topo::catalogSpec("a100-1"), "", fit.calibration) ==
        calibrate::calibratedSpec(*topo::catalogSpec("a100-1"), "", again.calibration));
  for (const calibrate::ParameterFit& p : fit.parameters)
    if (p.key == "ll128_choice_scale" || p.key == "launch_per_gpu_us") CHECK(p.determined);
}

// Every modelled public log fitted on itself (docs/benchmarks.md, "Calibration"): within 0.9-1.1x
// from 1 MiB, the two whose curves the model's shape follows least included (an H100 box's NVLS at
// 8 MiB, the first call of its 32 KiB chunks; the old-NCCL A100 allgather's 73 and 77 us at 1 and
// 2 MiB), which only the fit's band sweeps bring inside.
TEST_CASE("calibrate: each modelled log fitted on itself predicts it within 0.9-1.1x from 1 MiB") {
  int fitted = 0;
  for (const test::FixtureLog& log : test::fixtureLogs()) {
    if (!log.modelled) continue;
    INFO(log.file);
    checkRows(calibrate::fitCalibration(test::fixtureTopology(log), test::fixtureTables(log)), 0.9, 1.1, kMiB);
    ++fitted;
  }
  CHECK(fitted >= 12);
}

TEST_CASE("calibrate: a log of another machine is a located error") {
  const test::FixtureLog h100 = logNamed("h100-1x8-allreduce-nccl2.29.txt");
  const std::vector<calibrate::LogInput> tables = test::fixtureTables(h100);
  try {
    calibrate::checkAgainst(tables.front().table, topo::loadTopology("h100-2"));
    FAIL("accepted 8 GPUs for 16");
  } catch (const base::InputError& e) {
    CHECK_THAT(e.what(), Catch::Contains("h100-1x8-allreduce-nccl2.29.txt:11:1:") &&
                             Catch::EndsWith("the log ran on 8 GPUs but topology h100-2 has 16"));
  }
  try {
    calibrate::checkAgainst(tables.front().table, topo::loadTopology("a100-1"));
    FAIL("accepted H100s for an A100 box");
  } catch (const base::InputError& e) {
    CHECK_THAT(e.what(), Catch::EndsWith("rank 0 is a NVIDIA H100 80GB HBM3 (sm 90), but topology a100-1 says sm 80"));
  }
}
