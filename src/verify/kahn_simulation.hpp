// Decides deadlock by running the FIFO-unit machine (semantics/fifo_machine.hpp) the way the
// runtime would: every enabled thread block moves until none can. The system is a bounded-buffer
// Kahn network, so one such run decides deadlock exactly for its configuration (msccl-ir.md §2).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "semantics/fifo_machine.hpp"
#include "semantics/loaded_program.hpp"

namespace ccforge::verify {

struct SimulationConfig {
  int32_t tiles = 1;                                   // tile iterations per launch
  int32_t maxAllowedCount = semantics::kMaxStepCount;  // chunks per transfer (msccl-ir.md §2 "cnt > 1")
  int32_t slots = 2;                                   // transfers in flight per connection
  std::string describe() const;
};

enum class WaitKind : uint8_t { Dependency, Data, Slot };

struct BlockedThreadBlock {
  int32_t tb = -1;  // global thread block
  int32_t tile = 0;
  int32_t step = 0;  // index in the thread block
  WaitKind kind = WaitKind::Dependency;
  int32_t on = -1;         // Dependency: global tb waited for; Data/Slot: connection
  int64_t flagNeeded = 0;  // Dependency: the flag value waited for (FifoMachine::flagValue)
};

struct SimulationResult {
  bool completed = false;
  std::vector<BlockedThreadBlock> blocked;  // every unfinished tb, by global id
  uint64_t unitsMoved = 0;
};

// Where a blocked thread block of the machine waits.
BlockedThreadBlock blockedAt(const semantics::FifoMachine& machine, int32_t tb,
                             const semantics::FifoMachine::Requirement& need);
SimulationResult simulate(const semantics::LoadedProgram& program, ir::Protocol protocol,
                          const SimulationConfig& config);

}  // namespace ccforge::verify
