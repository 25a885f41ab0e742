// The one table of the performance model's constants for a machine: what the event simulator
// (`simulate`) charges a program and what the NCCL model (`simulate --nccl`, tune's baseline)
// charges NCCL. Defaults come from NCCL's own tables per GPU generation (model_parameters.cpp
// cites each); a spec's "calibration" (`ccforge calibrate`) replaces any of them
// (docs/simulate.md "The model", docs/calibrate.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "ir/model.hpp"
#include "sim/arch.hpp"
#include "topology/topology.hpp"

namespace ccforge::sim {

// How much faster than NCCL a program must be predicted to be, at least, to be given a size (tune's
// --margin default, synth -o's): 5 % of algbw.
inline constexpr double kDefaultMargin = 0.05;

struct ModelParameters {
  Arch arch = Arch::Sm80;
  // Fraction of a link's spec bandwidth that data moves at, by the transport crossing it:
  // NVLink-class links (NVSwitch, xGMI), PCIe between GPUs, the NICs and the network.
  double nvlinkEfficiency = 1;
  double pcieEfficiency = 1;
  double networkEfficiency = 1;
  // GPUs of a box without peer access (spec "p2p": false) meet through host memory (NCCL's SHM
  // transport): their PCIe routes move this fraction of what P2P moves.
  double shmEfficiency = 1;
  // The host's cost of one call (launch and enqueue): calls issued back to back overlap it with
  // the GPU's work, so a call takes at least this. One GPU per thread; each further GPU one thread
  // drives (nccl-tests -g) adds launchPerGpuUs.
  double launchUs = 0;
  double launchPerGpuUs = 0;
  // How much of the floor a call's GPU work hides: 1 all (the call takes the longer of the two),
  // 0 none (they add up). A call takes max(floor, gpu + (1 - launchOverlap) x floor).
  double launchOverlap = 1;
  // Multipliers of NCCL's per-hop latencies (hwLatencies) inside a box and across the network.
  double intraLatencyScale = 1;
  double interLatencyScale = 1;
  // Multiplier of NCCL's NVLS and NVLSTree latencies (their switch reductions are not hops).
  double nvlsLatencyScale = 1;
  // NVLS: the fraction of the NVLink bandwidth the switch reduces at (tuning.cc nvlsEfficiency).
  double nvlsEfficiency = 0;
  // NVLS and NVLSTree: what each step of a chunk smaller than the full one costs beyond its bytes
  // (the full chunk's steps are in nvlsEfficiency), in us: NCCL halves the chunk for calls that
  // fill few steps of every channel and head (enqueue.cc, sim/nccl_model.cpp nvlsChunkBytes).
  double nvlsStepUs = 0;
  // NCCL's LL bandwidth cap (llMaxBws) applies, times this.
  bool llCap = true;
  double llBandwidthScale = 1;
  // Multiplier of LL128's bandwidth: its payload fraction and NCCL's per-channel LL128 caps.
  double ll128BandwidthScale = 1;
  // Multipliers of the LL and LL128 bandwidths in NCCL's own estimate (by which it chooses, not
  // the prediction): the protocol crossovers of the machine's NCCL, where they differ from 2.30's.
  double llChoiceScale = 1;
  double ll128ChoiceScale = 1;
  // How far a prediction may be off, as |ln(predicted / measured)|: below 1 MiB, 1 MiB to below
  // 256 MiB, from 256 MiB. From calibration residuals, else the defaults of docs/calibrate.md.
  double errorSmall = 0;
  double errorMedium = 0;
  double errorLarge = 0;

  double efficiency(topo::LinkClass c) const;
  // The fraction of link `l`'s bandwidth data moves at: a link to or from a NIC carries network
  // traffic (GPUDirect RDMA), so it moves at the network's efficiency whatever its class.
  double linkEfficiency(const topo::Topology& t, const topo::Link& l) const;
  // The host path's (Topology::hostPath): PCIe through host memory, NCCL's SHM transport.
  double hostPathEfficiency() const { return pcieEfficiency * shmEfficiency; }
  // NCCL's ring per-hop latency of a route of this class (tuning.cc hwLatencies), scaled.
  double hopLatencyUs(ir::Protocol p, topo::LinkClass c) const;
  // NCCL's ring base latency (tuning.cc baseLatencies), paid once per call.
  double baseLatencyUs(ir::Protocol p) const;
  // The most one thread block (one connection) moves over a route of this class, in GB/s before
  // the protocol's payload fraction; nullopt: no cap (Arch::None).
  std::optional<double> perChannelGBps(topo::LinkClass c) const;
  // The per-call floor for `gpusPerThread` GPUs driven by one thread.
  double floorUs(int32_t gpusPerThread) const;
  // A call's time from its GPU time and the floor (launchOverlap).
  double callUs(double gpuUs, int32_t gpusPerThread) const;
  // The error bound of a size regime (errorSmall, errorMedium or errorLarge).
  double errorAt(uint64_t bytes) const;
  // The gain over NCCL (NCCL's time / a program's) a program needs at `bytes` to be given the
  // size: 1 + margin, or exp(errorAt(bytes)) where the model's error there is larger.
  double gainNeeded(uint64_t bytes, double margin) const;
  // NCCL's LL bandwidth cap (llMaxBws, on an Intel host across nodes) for `nodes` nodes, scaled:
  // the most one GPU sends per second with LL, in GB/s of payload; nullopt: no cap (Arch::None).
  std::optional<double> llCapGBps(int32_t nodes) const;
};

// `parameters` with the values `calibration` states (Arch::None: unchanged).
ModelParameters withCalibration(ModelParameters parameters, const topo::Calibration& calibration);

// The defaults for `arch`, then the topology's calibration over them. `arch` nullopt: the
// topology's own (archOf). Arch::None ignores the calibration: it is the pure link model.
ModelParameters modelParameters(const topo::Topology& topology, std::optional<Arch> arch = std::nullopt);

// The same parameters with every link at its spec bandwidth, no LL cap and no per-call floor
// (SimulationOptions::specLinkRates).
ModelParameters atSpecLinkRates(ModelParameters parameters);

// Fraction of the wire a protocol's payload fills: LL 0.5 (a 4-byte flag per 4 bytes of data),
// LL128 120/128 as NCCL's tuning counts it (0.92 in its ring model), Simple 1.
double protocolEfficiency(ir::Protocol p);

}  // namespace ccforge::sim
