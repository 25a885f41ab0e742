// Bucket costs from ccforge itself: every AllReduce of the algorithm library that instantiates
// for the topology's GPU count (and any MSCCL-IR files given), compiled and run in the event-
// driven simulator (src/sim) at a ladder of sizes, once per protocol; the plan then interpolates
// that table, so a bucket's choice is an algorithm and a protocol.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/model.hpp"
#include "plan/comm_cost.hpp"
#include "sim/arch.hpp"
#include "topology/topology.hpp"

namespace ccforge::plan {

struct SimulatedCostOptions {
  // Bytes simulated; beyond the last the table extrapolates the last slope, which can be far off
  // while the curve is still latency-bound: simulate up to the largest bucket the plan can form.
  // Empty: 1 KiB, 4 KiB, ... up to the first power of 4 at or above `maxBytes`.
  std::vector<uint64_t> sizes;
  uint64_t maxBytes = uint64_t{64} << 20;
  // The model parameters' generation; nullopt: the spec's (sim::archOf). A preset switch
  // (presetTopology) takes Arch::None: its links already carry the preset's alpha and beta.
  std::optional<sim::Arch> arch;
  std::vector<std::string> irFiles;  // extra candidates (e.g. synthesized); AllReduce on all GPUs
  std::string irDir;                 // when set, the library algorithms' IR is written there
  bool ringOnly = false;             // only the library's ring (in every protocol)
  // Each library algorithm is compiled once per protocol; a curve is named "ALGORITHM/PROTOCOL".
  std::vector<ir::Protocol> protocols{ir::Protocol::Simple, ir::Protocol::LL128, ir::Protocol::LL};
};

std::vector<uint64_t> defaultSimulatedSizes(uint64_t maxBytes);

// Throws InputError for an unusable IR file, std::invalid_argument when no algorithm fits.
// A table that is not non-decreasing in the size is made so (each point at least the one
// before); `notes` says so.
CommCost simulatedCost(const topo::Topology& topology, const SimulatedCostOptions& options,
                       std::vector<std::string>* notes);

// `workers` GPUs on one switch; every link has the per-step latency and per-byte time of the
// preset's calibrated link (comm_cost.hpp, analyticCost), as a network link class.
topo::Topology presetTopology(const NetworkPreset& preset, int32_t workers);

}  // namespace ccforge::plan
