// A program's simulated time over a range of power-of-two sizes, at the cost of a few of them:
// sizes up to kExtrapolatedAbove are simulated; beyond, each doubling is simulated until the times
// at s/4, s/2 and s lie on one line (slopes within kLinearTolerance) that passes within
// kMaxIntercept of the origin, and larger sizes are extrapolated along it (once the pipeline is
// full the simulator's time is affine in the tile iterations; docs/tune.md, "What is compared").
// tune and synth -o weigh programs against NCCL with it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/model.hpp"
#include "semantics/runtime_profile.hpp"
#include "sim/arch.hpp"
#include "topology/topology.hpp"

namespace ccforge::sim {

inline constexpr uint64_t kExtrapolatedAbove = uint64_t{64} << 20;
inline constexpr double kLinearTolerance = 0.002;
inline constexpr double kMaxIntercept = 0.1;  // of the time at the line's start
// The three points of the line run at least this many tile iterations each: below, a program's
// time per byte may still fall as iterations pipeline (the ring compositions of mi250-2 are
// straight from 64 to 256 MiB in one iteration and 20 % faster per byte at 1 GiB).
inline constexpr int64_t kSteadyTileIterations = 4;

struct SizeSweep {
  std::vector<std::optional<double>> timeUs;  // per size; nullopt: outside the window, or not reached
  std::string error;                          // the simulator's first error, if any
};

// `sizes`: powers of two, ascending. Only sizes inside `window` (the program's compiled window)
// are simulated or extrapolated.
SizeSweep sweepSizes(const ir::Algorithm& algorithm, const std::string& source, const topo::Topology& topology,
                     std::optional<Arch> arch, const semantics::SizeWindow& window, const std::vector<uint64_t>& sizes);

}  // namespace ccforge::sim
