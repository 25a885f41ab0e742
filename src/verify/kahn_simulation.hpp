// Executes a program's synchronisation (not its data) as the runtime does, at FIFO-unit
// granularity: every tb runs its steps in order, once per tile iteration; a step first waits for
// its dependency flag, then moves its transfers unit by unit (Simple: two slices per transfer;
// LL/LL128: one), each unit waiting for data (receives) and a free slot (sends). The system is a
// bounded-buffer Kahn network, so running every enabled tb until none is decides deadlock
// exactly (msccl-ir.md §2).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/model.hpp"
#include "verify/program_index.hpp"

namespace ccforge::verify {

struct SimulationConfig {
  int32_t tiles = 1;            // tile iterations per launch
  int32_t maxAllowedCount = 71;  // chunks per transfer (msccl-ir.md §2 "cnt > 1")
  int32_t slots = 2;            // transfers in flight per connection
  std::string describe() const;
};

enum class WaitKind : uint8_t { Dependency, Data, Slot };

struct BlockedThreadBlock {
  int32_t tb = -1;    // global thread block
  int32_t tile = 0;
  int32_t step = 0;   // index in the thread block
  WaitKind kind = WaitKind::Dependency;
  int32_t on = -1;    // Dependency: global tb waited for; Data/Slot: connection
  int64_t flagNeeded = 0;  // Dependency: flag value (tile * steps + step) it waits for
};

struct SimulationResult {
  bool completed = false;
  std::vector<BlockedThreadBlock> blocked;  // every unfinished tb, by global id
  uint64_t unitsMoved = 0;
};

int32_t transfersOf(int32_t cnt, int32_t maxAllowedCount);
SimulationResult simulate(const ProgramIndex& index, ir::Protocol protocol, const SimulationConfig& config);

}  // namespace ccforge::verify
