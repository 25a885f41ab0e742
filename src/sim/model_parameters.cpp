#include "sim/model_parameters.hpp"

#include <algorithm>
#include <cmath>

#include "sim/nccl_tables.hpp"

namespace ccforge::sim {
namespace {

// The defaults of a generation, before a calibration (docs/calibrate.md, "Defaults").
ModelParameters defaults(Arch arch) {
  ModelParameters p;
  p.arch = arch;
  if (arch == Arch::None) return p;  // the pure link model: every field at its neutral value
  // NVLink moves what NCCL assumes per link (topo.h) of the signalling rate: 20/25 (V100, A100),
  // 20.6/25 (H100), 40.1/50 (B200).
  p.nvlinkEfficiency = nccl::nvlinkGBps(arch) / nccl::nvlinkSignallingGBps(arch);
  // PCIe: NCCL counts a Gen4 x16 link (32 GB/s signalling) as 24 (topo.cc, width x 120 / 80):
  // 128b/130b encoding and TLP headers.
  p.pcieEfficiency = 0.75;
  // Network: NCCL's inter-node search runs a 400 Gb/s (50 GB/s) NIC's channels at 48 GB/s and a
  // 200 Gb/s one's at 24 (search.cc speedArrayInter): 0.96 of the line rate.
  p.networkEfficiency = 0.96;
  // SHM through host memory against P2P over the same PCIe links: 14.45 against 20.64 GB/s busbw
  // on one 8 x RTX 4090 box with P2P off and on (tests/fixtures/nccl-tests-logs, the only public
  // pair of such measurements found).
  p.shmEfficiency = 0.7;
  // A CUDA kernel launch costs the host about 4.5 us per GPU; NCCL's enqueue adds about as much
  // once per call (derived from the -g 4 and -g 8 floors of the fixture logs: 19 and 35-48 us).
  p.launchUs = 5;
  p.launchPerGpuUs = 4.5;
  // tuning.cc nvlsEfficiency (l.139-144): Hopper 0.85, Blackwell 0.74, none before.
  p.nvlsEfficiency = arch == Arch::Sm90 ? 0.85 : arch == Arch::Sm100 ? 0.74 : 0;
  // An NVLS step of a smaller chunk than the full one costs about 4 us beyond its bytes: on one
  // 8 x H100 box (tests/fixtures/nccl-tests-logs/h100-1x8-allreduce-nccl2.29.txt) the 32-512 MiB
  // rows, which run 64 and 32 KiB chunks, take 35-117 us more than the 128 KiB chunk's bandwidth
  // gives, 3.5-5.8 us per added step.
  p.nvlsStepUs = p.nvlsEfficiency > 0 ? 4 : 0;
  // Worst errors of the uncalibrated model on the fixture logs, rounded up (docs/benchmarks.md).
  p.errorSmall = std::log(2.0);
  p.errorMedium = std::log(1.5);
  p.errorLarge = std::log(1.25);
  return p;
}

}  // namespace

double protocolEfficiency(ir::Protocol p) {
  constexpr double kEfficiency[3] = {0.5, 0.92, 1.0};
  return kEfficiency[nccl::protocolColumn(p)];
}

ModelParameters withCalibration(ModelParameters p, const topo::Calibration& c) {
  if (p.arch == Arch::None) return p;
  auto take = [](double& field, const std::optional<double>& value) {
    if (value) field = *value;
  };
  take(p.nvlinkEfficiency, c.nvlinkEfficiency);
  take(p.pcieEfficiency, c.pcieEfficiency);
  take(p.networkEfficiency, c.networkEfficiency);
  take(p.launchUs, c.launchUs);
  take(p.launchPerGpuUs, c.launchPerGpuUs);
  take(p.launchOverlap, c.launchOverlap);
  take(p.intraLatencyScale, c.intraLatencyScale);
  take(p.interLatencyScale, c.interLatencyScale);
  take(p.nvlsLatencyScale, c.nvlsLatencyScale);
  take(p.nvlsEfficiency, c.nvlsEfficiency);
  take(p.nvlsStepUs, c.nvlsStepUs);
  take(p.llBandwidthScale, c.llBandwidthScale);
  take(p.ll128BandwidthScale, c.ll128BandwidthScale);
  take(p.llChoiceScale, c.llChoiceScale);
  take(p.ll128ChoiceScale, c.ll128ChoiceScale);
  take(p.errorSmall, c.errorSmall);
  take(p.errorMedium, c.errorMedium);
  take(p.errorLarge, c.errorLarge);
  return p;
}

ModelParameters modelParameters(const topo::Topology& topology, std::optional<Arch> arch) {
  const ModelParameters p = defaults(arch.value_or(archOf(topology)));
  return topology.calibration ? withCalibration(p, *topology.calibration) : p;
}

ModelParameters atSpecLinkRates(ModelParameters p) {
  p.nvlinkEfficiency = p.pcieEfficiency = p.networkEfficiency = p.shmEfficiency = 1;
  p.launchUs = p.launchPerGpuUs = 0;
  p.launchOverlap = 1;
  p.llCap = false;
  return p;
}

double ModelParameters::efficiency(topo::LinkClass c) const {
  switch (c) {
    case topo::LinkClass::NVLink: return nvlinkEfficiency;
    case topo::LinkClass::PCIe: return pcieEfficiency;
    case topo::LinkClass::Network: return networkEfficiency;
  }
  return 1;
}

double ModelParameters::linkEfficiency(const topo::Topology& t, const topo::Link& l) const {
  const bool nic = t.vertices()[static_cast<size_t>(l.from)].kind == topo::VertexKind::Nic ||
                   t.vertices()[static_cast<size_t>(l.to)].kind == topo::VertexKind::Nic;
  if (nic || l.linkClass == topo::LinkClass::Network) return networkEfficiency;
  if (l.linkClass == topo::LinkClass::PCIe && !t.gpuP2p) return pcieEfficiency * shmEfficiency;
  return efficiency(l.linkClass);
}

double ModelParameters::hopLatencyUs(ir::Protocol p, topo::LinkClass c) const {
  const double scale = c == topo::LinkClass::Network ? interLatencyScale : intraLatencyScale;
  return nccl::hwLatency(nccl::linkColumn(c), nccl::Algorithm::Ring, nccl::protocolColumn(p)) * scale;
}

double ModelParameters::baseLatencyUs(ir::Protocol p) const {
  return nccl::baseLatency(nccl::Algorithm::Ring, nccl::protocolColumn(p));
}

std::optional<double> ModelParameters::perChannelGBps(topo::LinkClass c) const {
  if (arch == Arch::None) return std::nullopt;
  // One thread block moves at most: over NVLink NCCL's per-link speed (topo.h); over the network
  // the fastest channel NCCL's inter-node search runs (search.cc speedArrayInter); over PCIe
  // NCCL's PCI_BW, a Gen3 x16 link (topo.h).
  switch (c) {
    case topo::LinkClass::NVLink: return nccl::nvlinkGBps(arch);
    case topo::LinkClass::Network: return nccl::interSpeeds(arch).front();
    case topo::LinkClass::PCIe: return 12.0;
  }
  return std::nullopt;
}

double ModelParameters::floorUs(int32_t gpusPerThread) const {
  return launchUs + launchPerGpuUs * static_cast<double>(gpusPerThread > 1 ? gpusPerThread - 1 : 0);
}

std::optional<double> ModelParameters::llCapGBps(int32_t nodes) const {
  if (arch == Arch::None || !llCap) return std::nullopt;
  const size_t index2 = nodes <= 2 ? static_cast<size_t>(std::max(nodes, 1) - 1) : 2;
  const size_t index1 = nodes <= 1 ? nccl::generationIndex(arch) : 0;
  return nccl::llMaxBw(index1, index2) * llBandwidthScale;
}

double ModelParameters::callUs(double gpuUs, int32_t gpusPerThread) const {
  const double floor = floorUs(gpusPerThread);
  return std::max(floor, gpuUs + (1 - launchOverlap) * floor);
}

double ModelParameters::errorAt(uint64_t bytes) const {
  if (bytes < (uint64_t{1} << 20)) return errorSmall;
  if (bytes < (uint64_t{256} << 20)) return errorMedium;
  return errorLarge;
}

double ModelParameters::gainNeeded(uint64_t bytes, double margin) const {
  return std::max(1 + margin, std::exp(errorAt(bytes)));
}

}  // namespace ccforge::sim
