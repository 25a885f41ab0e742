// A process group: a communicator over some of a machine's GPUs (a tensor-parallel group inside a
// box, a data-parallel group at one local rank of every box, a pipeline stage), and the topology
// that communicator sees (docs/synth.md, "Process groups").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "topology/topology.hpp"

namespace ccforge::topo {

// "0,8,16" or "8-15" or a mix ("0-3,8-11"): machine ranks, increasing. Throws
// std::invalid_argument naming the bad item (not a number, a range running down, repeated or out
// of order ranks).
std::vector<int32_t> parseRankList(std::string_view text);

// start, start + stride, ... (`size` ranks). Throws std::invalid_argument for size < 1 or stride < 1.
std::vector<int32_t> stridedRanks(int32_t start, int32_t stride, int32_t size);

// A short name for the group, for file names: "r0s8n64" for an arithmetic run of ranks (first,
// stride, count), otherwise "r" + the first rank + "-" + a hash of the list.
std::string processGroupTag(const std::vector<int32_t>& ranks);

// The machine as a communicator over `ranks` (increasing machine ranks, at least two) sees it.
// Group rank r is machine rank ranks[r]; GPUs keep their machine names. Like NCCL, which builds a
// communicator's system graph from the GPUs of its own ranks only, the other GPUs are left out,
// and with them the paths through them (PXN then proxies only through the group's own GPUs). A
// group inside one box leaves its box's NICs out as well (NCCL connects ranks of one node over
// NVLink or PCIe, not through the network). Switches and NICs that no longer lie between two
// vertices are removed; boxes are numbered in the order of their first member. Throws
// std::invalid_argument for a rank the machine does not have or fewer than two ranks.
Topology processGroupTopology(const Topology& machine, const std::vector<int32_t>& ranks);

}  // namespace ccforge::topo
