// `calibrate` on the public nccl-tests logs of tests/fixtures/nccl-tests-logs (docs/benchmarks.md,
// "Calibration"): each log fitted on its own, its predicted over measured time from 1 MiB before
// and after the fit; then the fit of one log predicting the other collectives of the same run (the
// same cluster: the same file name but for the collective, as the fixtures are named), and the
// other logs modelled by the same spec (other clusters of the same kind).
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

// The run a log comes from: its file name without the folder and the collective.
std::string runOf(const std::string& file) {
  std::string name = file.substr(file.rfind('/') == std::string::npos ? 0 : file.rfind('/') + 1);
  for (std::string_view c : {"allreduce", "allgather", "reducescatter", "alltoall", "broadcast", "reduce"})
    if (const size_t at = name.find(c); at != std::string::npos) return name.erase(at, c.size());
  return name;
}

void printTransfer(const std::map<std::string, std::vector<test::FixtureLog>>& groups) {
  std::cout << "| machine | fitted on | predicts | before | after |\n|---|---|---|---|---|\n";
  for (const auto& [group, logs] : groups) {
    if (logs.size() < 2) continue;
    const test::FixtureLog& first = logs.front();
    const topo::Topology t = test::fixtureTopology(first);
    const calibrate::FitResult fit = calibrate::fitCalibration(t, test::fixtureTables(first));
    topo::Topology fitted = t;
    fitted.calibration = fit.calibration;
    for (size_t k = 1; k < logs.size(); ++k) {
      const Ranges b = rangesOf(calibrate::compareWithLogs(t, test::fixtureTables(logs[k])));
      const Ranges a = rangesOf(calibrate::compareWithLogs(fitted, test::fixtureTables(logs[k])));
      std::cout << fmt::format("| {} | {} | {} | {} | {} |\n", first.topology, first.file, logs[k].file,
                               range(b.afterLo, b.afterHi, b.rows), range(a.afterLo, a.afterHi, a.rows));
    }
  }
}

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
      std::cout << fmt::format("| {} | {} | {} | {} | {} |\n", log.file, log.topology,
                               range(r.beforeLo, r.beforeHi, r.rows), range(r.afterLo, r.afterHi, r.rows),
                               fitted.empty() ? "-" : fitted)
                << std::flush;
    } catch (const std::exception& e) {
      std::cout << fmt::format("| {} | {} | {} |\n", log.file, log.topology, e.what());
    }
  }
  std::map<std::string, std::vector<test::FixtureLog>> byRun;
  for (const auto& [machine, logs] : byMachine)
    for (const test::FixtureLog& log : logs) byRun[machine + " " + runOf(log.file)].push_back(log);
  std::cout << "\n### One log's fit predicting the other collectives of its run (predicted / measured time, rows from "
               "1 MiB)\n\n";
  printTransfer(byRun);
  std::cout << "\n### One log's fit predicting the other logs of its spec, other clusters included\n\n";
  printTransfer(byMachine);
}
