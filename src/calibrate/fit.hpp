// `ccforge calibrate`: the model parameters (sim/model_parameters.hpp) that make the NCCL model
// predict a machine's own nccl-tests logs, fitted by least squares on ln(predicted / measured)
// over every row of the logs (docs/calibrate.md, "The fit"). A log determines only some
// parameters; the others keep their values and the result says why.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "calibrate/nccl_tests_log.hpp"
#include "sim/nccl_environment.hpp"
#include "topology/calibration.hpp"
#include "topology/topology.hpp"

namespace ccforge::calibrate {

// One log table with what the run was told (NCCL_* settings beyond those the log reports).
struct LogInput {
  NcclTestsTable table;
  std::vector<std::string> environment;  // "NAME=VALUE"
};

// Predicted against measured, per row of a table: the mean of the out-of-place and in-place times
// the log has.
struct RowFit {
  size_t table = 0;
  uint64_t bytes = 0;
  double measuredUs = 0;
  double predictedBeforeUs = 0;  // with the parameters before the fit
  double predictedUs = 0;        // with the fitted parameters
  std::string choice;            // NCCL's algorithm and protocol there, e.g. "ring LL128"
};

struct ParameterFit {
  std::string key;  // a calibration key (topology/calibration.hpp)
  double before = 0;
  double value = 0;
  bool determined = false;
  std::string why;  // what in the logs determines it, or why they do not
};

struct FitResult {
  topo::Calibration calibration;  // the spec's previous calibration with the fitted values
  std::vector<ParameterFit> parameters;
  std::vector<RowFit> rows;
  // The largest |ln(predicted / measured)| per regime after the fit (also in `calibration`).
  double errorSmall = 0, errorMedium = 0, errorLarge = 0;
};

// Throws InputError (at the log's line) for a table whose GPU count differs from the topology's,
// whose device model contradicts the spec's generation, or that has no row with a time.
void checkAgainst(const NcclTestsTable& table, const topo::Topology& topology);

FitResult fitCalibration(const topo::Topology& topology, const std::vector<LogInput>& logs);
// The same rows without a fit: the model as `topology` has it against the logs (predictedUs and
// predictedBeforeUs equal), and its errors per regime.
FitResult compareWithLogs(const topo::Topology& topology, const std::vector<LogInput>& logs);

}  // namespace ccforge::calibrate
