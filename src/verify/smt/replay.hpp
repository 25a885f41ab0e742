// Replays a deadlock witness's schedule on the FIFO-unit machine (semantics/fifo_machine.hpp),
// the same that decides deadlock in kahn_simulation: every event must be its block's next one
// and enabled when it runs. Afterwards every unfinished block must be blocked, which is the
// stuck state the witness claims; by the Kahn-network argument it is the state the simulation
// ends in.
#pragma once

#include <string>
#include <vector>

#include "ir/model.hpp"
#include "verify/kahn_simulation.hpp"
#include "verify/step_ref.hpp"
#include "verify/report.hpp"

namespace ccforge::verify::smt {

struct UnitReplay {
  bool ok = false;    // every event ran, and the final state is stuck
  std::string error;  // otherwise: the first event that could not run, or a block that could go on
  std::vector<verify::BlockedThreadBlock> blocked;  // every unfinished block, by global id
  uint64_t unitsMoved = 0;
};

UnitReplay replayUnitSchedule(const semantics::LoadedProgram& index, ir::Protocol protocol,
                              const verify::SimulationConfig& config,
                              const std::vector<verify::ScheduleEvent>& schedule);

}  // namespace ccforge::verify::smt
