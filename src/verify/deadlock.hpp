// Check 6: deadlock freedom under the FIFO slot limits, for every tile-iteration count
// (1, 2, 3) and both count-splitting regimes the file's size window can reach; a deadlock is
// reported as the cycle of waits. Also finds the smallest deadlock-free slot count.
#pragma once

#include <optional>
#include <vector>

#include "verify/findings.hpp"
#include "verify/kahn_simulation.hpp"
#include "verify/step_ref.hpp"

namespace ccforge::verify {

// (tiles, maxAllowedCount) pairs reachable within the algorithm's size window that lead to
// different transfer patterns; slots are left at 0 for the caller.
std::vector<SimulationConfig> reachableConfigurations(const semantics::LoadedProgram& program);

// The wait-for chain from the first blocked tb: a cycle, or a chain ending at a tb that has
// finished or at a connection with nobody on the other side.
struct WaitCycle {
  std::vector<BlockedThreadBlock> chain;
  bool isCycle = false;
  std::string end;  // what the chain ends at when it is not a cycle
};
WaitCycle findWaitCycle(const semantics::LoadedProgram& index, const SimulationResult& result);

DeadlockSummary checkDeadlock(const semantics::LoadedProgram& index, std::optional<int32_t> slotsOverride,
                              Findings& findings);

}  // namespace ccforge::verify
