// NCCL's own constants, as its source states them (NVIDIA/nccl at commit 5067397c, version
// 2.30.7; the .cpp cites file and line of each table): the tuning model's latencies and bandwidth
// caps (src/graph/tuning.cc), the per-link speeds (src/graph/topo.h) and the channel speeds of its
// topology search (src/graph/search.cc). docs/simulate.md, "NCCL's choice", says what each is for.
#pragma once

#include <cstddef>
#include <vector>

#include "ir/model.hpp"
#include "sim/arch.hpp"
#include "topology/topology.hpp"

namespace ccforge::sim::nccl {

// tuning.cc's algorithm order; CollNet (SHARP in the network) is not modelled.
enum class Algorithm : uint8_t { Tree, Ring, Nvls, NvlsTree, Pat };
inline constexpr size_t kAlgorithms = 5;
std::string_view algorithmName(Algorithm a);  // NCCL's spelling: Tree, Ring, NVLS, NVLSTree, PAT

// Table columns: protocols LL 0, LL128 1, Simple 2; links NVLink 0, PCI 1, NET 2;
// generations Volta 0, Ampere 1, Hopper 2, Blackwell 3 (tuning.cc compCapIndex).
size_t protocolColumn(ir::Protocol p);
size_t linkColumn(topo::LinkClass c);
size_t generationIndex(Arch a);

double baseLatency(Algorithm a, size_t protocol);
double hwLatency(size_t link, Algorithm a, size_t protocol);
// llMaxBws[index1][index2]: index1 the generation on one node, the host CPU (0: Intel) on several;
// index2 0 for 1 node, 1 for 2, 2 for more.
double llMaxBw(size_t index1, size_t index2);
double perChMaxRingLL128Bw(size_t generation, size_t index2);
double perChMaxTreeLL128Bw(size_t generation, size_t index2);
double perChMaxTreeBw(size_t generation, size_t index2);
double perChMaxNvlsTreeBw(size_t generation, size_t index2);
double nvlsEfficiency(size_t generation);
// treeCorrectionFactor[protocol][log2(bytes / 64)], 0 <= logSize < 24.
double treeCorrection(size_t protocol, int logSize);
// getNetOverhead on an Intel x86 host (us).
inline constexpr double kNetOverheadUs = 1.0;
// nvlsChannels (CTAs of an NVLS kernel): Hopper 16, Blackwell 24 on one node and 32 on several.
int nvlsChannels(Arch a, int nodes);

// NVLink bandwidth NCCL assumes per link, and the signalling rate of one link of that generation
// in ccforge's specs (25 GB/s, Blackwell 50).
double nvlinkGBps(Arch a);
double nvlinkSignallingGBps(Arch a);
// The per-channel speeds the topology search tries, fastest first, inside a node and between nodes.
const std::vector<double>& intraSpeeds(Arch a);
const std::vector<double>& interSpeeds(Arch a);

}  // namespace ccforge::sim::nccl
