#include "topology/calibration.hpp"

namespace ccforge::topo {

const std::vector<CalibrationField>& calibrationFields() {
  static const std::vector<CalibrationField> fields = {
      {"nvlink_efficiency", &Calibration::nvlinkEfficiency, 0.05, 1.5,
       "fraction of an NVLink-class link's bandwidth moved"},
      {"pcie_efficiency", &Calibration::pcieEfficiency, 0.01, 1.5,
       "fraction of a PCIe link's bandwidth moved GPU to GPU"},
      {"network_efficiency", &Calibration::networkEfficiency, 0.01, 1.5,
       "fraction of a NIC's and the network's bandwidth moved"},
      {"launch_us", &Calibration::launchUs, 0, 10000, "per-call floor with one GPU per thread (us)"},
      {"launch_per_gpu_us", &Calibration::launchPerGpuUs, 0, 10000,
       "added to the floor per further GPU one thread drives (us)"},
      {"launch_overlap", &Calibration::launchOverlap, 0, 1,
       "how much of the floor the GPU's work hides: 1 all (a call takes the longer), 0 none (they add)"},
      {"intra_latency_scale", &Calibration::intraLatencyScale, 0.01, 100,
       "multiplier of NCCL's per-hop latency in a box"},
      {"inter_latency_scale", &Calibration::interLatencyScale, 0.01, 100,
       "multiplier of NCCL's per-hop latency across the network"},
      {"nvls_latency_scale", &Calibration::nvlsLatencyScale, 0.01, 100,
       "multiplier of NCCL's NVLS and NVLSTree latencies"},
      {"nvls_efficiency", &Calibration::nvlsEfficiency, 0.05, 1.5,
       "NVLS: fraction of the NVLink bandwidth reduced in the switch"},
      {"nvls_step_us", &Calibration::nvlsStepUs, 0, 1000,
       "NVLS and NVLSTree: the cost of each further step of a chunk smaller than the full one (us)"},
      {"ll_bandwidth_scale", &Calibration::llBandwidthScale, 0.05, 20,
       "multiplier of NCCL's LL bandwidth cap (llMaxBw)"},
      {"ll128_bandwidth_scale", &Calibration::ll128BandwidthScale, 0.05, 2,
       "multiplier of LL128's bandwidth (NCCL's 0.92 payload fraction and its per-channel LL128 caps)"},
      {"ll_choice_scale", &Calibration::llChoiceScale, 0.05, 20,
       "multiplier of the LL bandwidth NCCL chooses by: where the machine's NCCL leaves LL (a protocol crossover)"},
      {"ll128_choice_scale", &Calibration::ll128ChoiceScale, 0.05, 20,
       "multiplier of the LL128 bandwidth NCCL chooses by: where the machine's NCCL takes and leaves LL128"},
      {"error_small", &Calibration::errorSmall, 0, 10, "largest |ln(predicted/measured)| below 1 MiB"},
      {"error_medium", &Calibration::errorMedium, 0, 10, "largest |ln(predicted/measured)| from 1 MiB to 256 MiB"},
      {"error_large", &Calibration::errorLarge, 0, 10, "largest |ln(predicted/measured)| from 256 MiB"},
  };
  return fields;
}

}  // namespace ccforge::topo
