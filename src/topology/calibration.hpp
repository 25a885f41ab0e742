// What `ccforge calibrate` learned about a machine from its nccl-tests logs, as a spec carries it
// ("calibration" in docs/topologies.md): values that replace the performance model's defaults
// (sim/model_parameters.hpp), the model's remaining error per size regime, and the logs it came
// from. Every value is optional: a log determines only some of them (docs/calibrate.md).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ccforge::topo {

struct Calibration {
  std::optional<double> nvlinkEfficiency;
  std::optional<double> pcieEfficiency;
  std::optional<double> networkEfficiency;
  std::optional<double> launchUs;
  std::optional<double> launchPerGpuUs;
  std::optional<double> launchOverlap;
  std::optional<double> intraLatencyScale;
  std::optional<double> interLatencyScale;
  std::optional<double> nvlsLatencyScale;
  std::optional<double> nvlsEfficiency;
  std::optional<double> nvlsStepUs;
  std::optional<double> llBandwidthScale;
  std::optional<double> ll128BandwidthScale;
  std::optional<double> llChoiceScale;
  std::optional<double> ll128ChoiceScale;
  // The largest |ln(predicted / measured)| the calibrated model left on its logs, below 1 MiB,
  // from 1 MiB to below 256 MiB, and from 256 MiB: how far a prediction there may be off.
  std::optional<double> errorSmall;
  std::optional<double> errorMedium;
  std::optional<double> errorLarge;
  std::vector<std::string> logs;
};

// One numeric field: its key in the spec, its member, the values it may take, what it means.
struct CalibrationField {
  std::string_view key;
  std::optional<double> Calibration::*member;
  double min;
  double max;
  std::string_view meaning;
};

// Every numeric field, in the order a spec writes them.
const std::vector<CalibrationField>& calibrationFields();

}  // namespace ccforge::topo
