// What NCCL does on its own, the fallback every MSCCL algorithm directory is compared with: NCCL's
// tuning model (NVIDIA/nccl src/graph/tuning.cc) for ring and tree allreduce and ring allgather
// and reducescatter, and a plain p2p estimate for alltoall (NCCL runs it as grouped sends and
// receives, which tuning.cc does not model). Deliberately simple: the machine is read off the
// topology as a channel count and a per-channel bandwidth (docs/tune.md, "NCCL's fallback",
// cites every constant and says what is left out).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/model.hpp"
#include "sim/cost_model.hpp"
#include "topology/topology.hpp"

namespace ccforge::sim {

// GPU generation as tuning.cc indexes its tables (compCapIndex).
enum class NcclGeneration : uint8_t { Volta, Ampere, Hopper, Blackwell };

// The machine as NCCL's model sees it.
struct NcclMachine {
  int32_t ranks = 0;
  int32_t nodes = 1;
  topo::LinkClass intraClass = topo::LinkClass::NVLink;  // NVLink or PCIe between GPUs of a box
  NcclGeneration generation = NcclGeneration::Ampere;
  int32_t channels = 1;            // graph->nChannels
  double perChannelGBps = 0;       // graph->bwIntra (at most 2 nodes) or bwInter
  double gpuIntraGBps = 0;         // one GPU's bandwidth to the rest of its box (alltoall)
  double gpuNetworkGBps = 0;       // one GPU's share of its box's network bandwidth (alltoall)
  // The topology's link alphas, which the simulator charges on every transfer on top of NCCL's
  // per-hop latency: charged to NCCL's steps too. Intra: the route to a GPU's nearest peer in its
  // box (the largest such over the GPUs); inter: the shortest route between boxes.
  double intraAlphaUs = 0;
  double interAlphaUs = 0;
};

// Channels of NCCL's ring search: a GPU's aggregate bandwidth (at most the box's network
// bandwidth when there are several boxes) cut into channels of the arch's per-channel speed
// (cost_model.hpp perChannelGBps), at most kMaxNcclChannels.
inline constexpr int32_t kMaxNcclChannels = 32;
NcclMachine ncclMachineOf(const topo::Topology& topology, Arch arch);

struct NcclChoice {
  std::string algorithm;  // "ring", "tree", "p2p"
  ir::Protocol protocol = ir::Protocol::Simple;
  double timeUs = 0;
};

// Every (algorithm, protocol) NCCL considers for the collective, with its predicted time for a
// call of `bytes` (nccl-tests' size: the whole buffer of allreduce, the gathered buffer of
// allgather and reducescatter, one rank's send buffer of alltoall). Throws
// std::invalid_argument for a collective the model does not cover.
std::vector<NcclChoice> ncclOptions(const NcclMachine& machine, ir::CollectiveKind collective, uint64_t bytes);
// The fastest of them: what NCCL's tuner picks (ties: the first in ring, tree order, LL, LL128, Simple).
NcclChoice ncclFallback(const NcclMachine& machine, ir::CollectiveKind collective, uint64_t bytes);

}  // namespace ccforge::sim
