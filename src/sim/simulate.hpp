// `ccforge simulate`: an event-driven alpha-beta simulation of an MSCCL-IR program on a
// topology, per message size, reported with nccl-tests' algbw and busbw (docs/simulate.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/model.hpp"
#include "topology/topology.hpp"
#include "sim/cost_model.hpp"
#include "sim/program_run.hpp"

namespace ccforge::sim {

inline constexpr uint64_t kDefaultEventLimit = 20'000'000;

struct SimulationOptions {
  std::vector<uint64_t> sizes;  // bytes, nccl-tests' size of the collective
  // The GPU generation whose model parameters apply; nullopt: the topology's (its "sm").
  std::optional<Arch> arch;
  uint64_t eventLimit = kDefaultEventLimit;  // per size
  // Links at their spec bandwidth, no LL cap and no per-call floor: the rates `bounds` assumes, so
  // that a program is compared with its bound on the same links (tree synthesis does). The
  // generation's per-channel caps and latencies still apply.
  bool specLinkRates = false;
};

struct SizeResult {
  uint64_t bytes = 0;
  double timeUs = 0;
  double algbwGBps = 0;      // bytes / time
  double busbwGBps = 0;      // algbw * the collective's nccl-tests factor
  bool inSizeWindow = true;  // minBytes <= bytes <= maxBytes (maxBytes 0: unbounded)
  int64_t iterations = 0;    // tile iterations per thread block
  int64_t transfers = 0;
  // Skew: the latest minus the earliest time a rank finished its last thread block.
  double rankSkewUs = 0;
};

struct SimulationReport {
  double busbwFactor = 1;
  std::vector<SizeResult> results;
};

// Throws InputError (file `source`, at the offending element) when program and topology do
// not fit: more ranks than GPUs, a connection without a route, a transfer step without a
// peer; SimulationViolation when the program cannot run (deadlock, paired transfers of
// different sizes, two blocks on one connection); SimulationLimit past the event limit.
SimulationReport simulate(const ir::Algorithm& algorithm, const std::string& source, const topo::Topology& topology,
                          const SimulationOptions& options);

}  // namespace ccforge::sim
