// The program's synchronisation as a graph of events, one per atomic action of a thread block
// in one configuration (tile iterations, maxAllowedCount, slots): a FIFO unit of a step (Simple:
// two per transfer, LL/LL128: one), or a whole step that moves no data. An event may run once
// the previous event of its block ran and each of its predecessors ran:
//   data: the unit it receives was sent;  slot: the unit `capacity` units before the one it
//   sends was received;  flag: for each flag the step waits for (semantics/loaded_program.hpp),
//   the first step of that thread block that published a large enough step number (for the
//   first event of the step).
// A predecessor that does not exist (a unit nobody sends, a flag nobody publishes) is missing:
// the event can never run. This is the runtime's blocking semantics (msccl-ir.md §2), the same
// that kahn_simulation executes, written out as a graph the encodings constrain.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/model.hpp"
#include "verify/kahn_simulation.hpp"
#include "verify/step_ref.hpp"

namespace ccforge::verify::smt {

inline constexpr uint32_t kMissing = UINT32_MAX;

struct Predecessor {
  uint32_t event = kMissing;
  verify::WaitKind kind = verify::WaitKind::Data;
  int32_t on = -1;         // Data/Slot: connection; Dependency: global thread block
  int64_t flagNeeded = 0;  // Dependency: the flag value waited for (FifoMachine::flagValue)
};

struct UnitEvent {
  int32_t tb = 0;  // global thread block
  int32_t tile = 0;
  int32_t step = 0;   // index in the thread block
  int32_t unit = 0;   // FIFO unit within the step (0 for a step that moves no data)
  int32_t units = 0;  // FIFO units of the step (0: it moves no data)
  uint32_t firstPredecessor = 0, predecessorCount = 0;
};

// The most events an encoding builds (about 2 GB of terms): beyond, no answer rather than no memory.
inline constexpr uint64_t kMaxUnitEvents = 4'000'000;

// How many events a configuration has, without building them.
uint64_t countUnitEvents(const semantics::LoadedProgram& index, ir::Protocol protocol,
                         const verify::SimulationConfig& config);

class UnitEventGraph {
 public:
  UnitEventGraph(const semantics::LoadedProgram& index, ir::Protocol protocol, const verify::SimulationConfig& config);

  const semantics::LoadedProgram& index() const { return index_; }
  const verify::SimulationConfig& config() const { return config_; }
  size_t size() const { return events_.size(); }
  const UnitEvent& event(uint32_t e) const { return events_[e]; }
  // Events of a thread block in execution order are [firstEvent(tb), firstEvent(tb + 1)).
  uint32_t firstEvent(int32_t tb) const { return tbFirstEvent_[static_cast<size_t>(tb)]; }
  uint32_t endEvent(int32_t tb) const { return tbFirstEvent_[static_cast<size_t>(tb) + 1]; }
  const Predecessor* predecessors(const UnitEvent& e) const { return preds_.data() + e.firstPredecessor; }
  int32_t unitsPerTransfer() const { return unitsPerTransfer_; }
  int64_t capacity() const { return capacity_; }  // units in flight per connection

 private:
  void build();
  void link();

  const semantics::LoadedProgram& index_;
  verify::SimulationConfig config_;
  int32_t unitsPerTransfer_;
  int64_t capacity_;
  std::vector<UnitEvent> events_;
  std::vector<uint32_t> tbFirstEvent_;
  std::vector<Predecessor> preds_;
  // Per connection: the events that send / receive its units, in order.
  std::vector<std::vector<uint32_t>> sentBy_, receivedBy_;
  // Per thread block: the events after which it publishes a flag, and the flag values.
  std::vector<std::vector<uint32_t>> publishers_;
  std::vector<std::vector<int64_t>> published_;
};

}  // namespace ccforge::verify::smt
