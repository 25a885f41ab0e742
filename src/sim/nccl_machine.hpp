// A machine as NCCL sees it: what its topology search (NVIDIA/nccl src/graph/search.cc) finds on
// a ccforge topology, followed rule by rule where the topology says enough and approximated where
// it does not (docs/simulate.md, "NCCL's choice", lists both), plus the machine's achieved rates
// against the ones NCCL assumes (sim/model_parameters.hpp).
#pragma once

#include <cstdint>
#include <vector>

#include "sim/arch.hpp"
#include "sim/model_parameters.hpp"
#include "topology/topology.hpp"

namespace ccforge::sim {

struct NcclMachine {
  int32_t ranks = 0;
  int32_t nodes = 1;
  double ppn = 1;  // ranks per node
  Arch arch = Arch::Sm80;
  topo::LinkClass intraClass = topo::LinkClass::NVLink;  // NVLink or PCIe between a box's GPUs
  // The ring (and tree) graph: channels of bwIntra inside a node and bwInter between nodes.
  int32_t channels = 1;
  double bwIntra = 0;
  double bwInter = 0;
  // comm->nChannels: the channels (CTAs) a call may use, after NCCL duplicates the graph's.
  int32_t commChannels = 1;
  // NVLS (NVLink SHARP): its graph, when the boxes have it.
  bool nvls = false;
  int32_t nvlsHeads = 0;
  double nvlsBwIntra = 0;
  double nvlsBwInter = 0;
  bool pat = false;   // PAT: one GPU per node
  bool ll128 = true;  // LL128 enabled by default (NVLink between the GPUs of a box)
  // The topology's link alphas, which the simulator charges every transfer on top of NCCL's
  // per-hop latency: charged to NCCL's steps too (inside a box: the route to a GPU's nearest peer,
  // the largest such; between boxes: the shortest route).
  double intraAlphaUs = 0;
  double interAlphaUs = 0;
  // What the machine achieves against what NCCL assumes, as factors on NCCL's bandwidths: inside
  // a box, a GPU's NIC (between boxes), and a GPU's own intra-box bandwidth (for p2p).
  double intraScale = 1;
  double interScale = 1;
  double gpuIntraGBps = 0;    // one GPU's achieved bandwidth into its box
  double gpuNetworkGBps = 0;  // one GPU's achieved share of its box's network bandwidth
  // The share of gpuIntraGBps a GPU's alltoall sends to its box's peers reach over the routes they
  // take: 1 through a switch; less where peers without a direct link load a relay or the host path.
  double allToAllIntraShare = 1;
  // The share of a GPU's NIC bandwidth the network's spine leaves (oversubscribed, or shared by
  // the boxes of a Clos leaf): for rings and trees (every GPU to its peer in the next box; in
  // interScale) and for alltoall (to its peers in all other boxes).
  double networkShare = 1;
  double allToAllNetworkShare = 1;
  // The spec's bandwidths behind the last two (weakest GPU), for setAchievedRates.
  double gpuIntraSpecGBps = 0;
  double gpuNetworkSpecGBps = 0;
};

// The bandwidth NCCL's search counts on one GPU-to-GPU or GPU-to-switch link of a box: an NVLink
// at NCCL's per-link speed (topo.h), a PCIe link at NCCL's width x rate / 8 x 0.75 (topo.cc).
double ncclLinkGBps(const topo::Link& link, Arch arch);

// A box as NCCL's ring search sees it: its GPUs (ranks, in order), how many channels of speed
// `speed` each directed GPU-to-GPU link of the box carries (local indexes), and whether the GPUs
// meet at a switch of the box instead (an NVSwitch or a PCIe switch: then any ring order does).
struct NcclBox {
  std::vector<int32_t> ranks;
  std::vector<std::vector<int32_t>> units;  // [from][to]
  bool switched = false;
};
std::vector<NcclBox> ncclBoxes(const topo::Topology& topology, double speed, Arch arch);

// NCCL's view of `topology` for GPU generation `arch` (Arch::None: the topology's), its achieved
// rates still NCCL's own (scales 1). Throws std::invalid_argument for fewer than 2 GPUs.
NcclMachine ncclMachineOf(const topo::Topology& topology, Arch arch);
// Sets the achieved-rate fields (scales, gpuIntraGBps, gpuNetworkGBps) from `parameters`.
void setAchievedRates(NcclMachine& machine, const topo::Topology& topology, const ModelParameters& parameters);

}  // namespace ccforge::sim
