// `calibrate` on the public nccl-tests logs of tests/fixtures/nccl-tests-logs (docs/benchmarks.md,
// "Calibration"): each log fitted on its own, its predicted over measured time from 1 MiB before
// and after the fit; then, per machine with several collectives, the fit of one log predicting
// the others.
// usage: calibration_fit
#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <map>

#include "calibrate/fit.hpp"
#include "support/nccl_tests_logs.hpp"

using namespace ccforge;

namespace {

constexpr uint64_t kMiB = uint64_t{1} << 20;

// The range of predicted / measured over the rows from 1 MiB, before and after.
struct Ranges {
  double beforeLo = 1e300, beforeHi = 0, afterLo = 1e300, afterHi = 0;
  int rows = 0;
};
Ranges rangesOf(const calibrate::FitResult& r) {
  Ranges out;
  for (const calibrate::RowFit& row : r.rows) {
    if (row.bytes < kMiB) continue;
    const double before = row.predictedBeforeUs / row.measuredUs, after = row.predictedUs / row.measuredUs;
    out.beforeLo = std::min(out.beforeLo, before);
    out.beforeHi = std::max(out.beforeHi, before);
    out.afterLo = std::min(out.afterLo, after);
    out.afterHi = std::max(out.afterHi, after);
    ++out.rows;
  }
  return out;
}

std::string range(double lo, double hi, int rows) { return rows == 0 ? "-" : fmt::format("{:.2f}-{:.2f}", lo, hi); }

}  // namespace

int main() {
  std::cout << "### Each log fitted on itself (predicted / measured time, rows from 1 MiB)\n\n"
               "| log | machine | before | after | fitted |\n|---|---|---|---|---|\n";
  std::map<std::string, std::vector<test::FixtureLog>> byMachine;
  for (const test::FixtureLog& log : test::fixtureLogs()) {
    byMachine[log.topology].push_back(log);
    try {
      const calibrate::FitResult fit = calibrate::fitCalibration(test::fixtureTopology(log), test::fixtureTables(log));
      const Ranges r = rangesOf(fit);
      std::string fitted;
      for (const calibrate::ParameterFit& p : fit.parameters)
        if (p.determined && p.value != p.before) fitted += (fitted.empty() ? "" : ", ") + p.key;
      std::cout << fmt::format("| {} | {} | {} | {} | {} |\n", log.file, log.topology, range(r.beforeLo, r.beforeHi, r.rows),
                               range(r.afterLo, r.afterHi, r.rows), fitted.empty() ? "-" : fitted)
                << std::flush;
    } catch (const std::exception& e) {
      std::cout << fmt::format("| {} | {} | {} |\n", log.file, log.topology, e.what());
    }
  }
  std::cout << "\n### One log's fit predicting the machine's other logs (predicted / measured time, rows from 1 MiB)\n\n"
               "| machine | fitted on | predicts | before | after |\n|---|---|---|---|---|\n";
  for (const auto& [machine, logs] : byMachine) {
    if (logs.size() < 2) continue;
    const test::FixtureLog& first = logs.front();
    const topo::Topology t = test::fixtureTopology(first);
    const calibrate::FitResult fit = calibrate::fitCalibration(t, test::fixtureTables(first));
    topo::Topology fitted = t;
    fitted.calibration = fit.calibration;
    for (size_t k = 1; k < logs.size(); ++k) {
      const calibrate::FitResult before = calibrate::compareWithLogs(t, test::fixtureTables(logs[k]));
      const calibrate::FitResult after = calibrate::compareWithLogs(fitted, test::fixtureTables(logs[k]));
      const Ranges b = rangesOf(before), a = rangesOf(after);
      std::cout << fmt::format("| {} | {} | {} | {} | {} |\n", machine, first.file, logs[k].file, range(b.afterLo, b.afterHi, b.rows),
                               range(a.afterLo, a.afterHi, a.rows));
    }
  }
}
