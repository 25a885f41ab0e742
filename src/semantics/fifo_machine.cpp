#include "semantics/fifo_machine.hpp"

namespace ccforge::semantics {

MachineConfig machineConfig(ir::Protocol protocol, int64_t tiles, int32_t maxAllowedCount, int32_t transfers) {
  MachineConfig c;
  c.tiles = tiles;
  c.maxAllowedCount = maxAllowedCount;
  c.unitsPerTransfer = unitsPerTransfer(protocol);
  c.unitsInFlight = transfers > 0 ? transfers * c.unitsPerTransfer : unitsInFlight(protocol);
  return c;
}

FifoMachine::FifoMachine(const LoadedProgram& program, const MachineConfig& config)
    : p_(program),
      c_(config),
      moves_(program.stepCount()),
      cursor_(static_cast<size_t>(program.threadBlockCount())),
      flag_(static_cast<size_t>(program.threadBlockCount()), -1),
      produced_(program.connections().size(), 0),
      consumed_(program.connections().size(), 0) {
  for (uint32_t s = 0; s < program.stepCount(); ++s) {
    const LoadedStep& st = program.step(s);
    moves_[s] = {unitsOf(st), st.waitCount, st.flagStep, receives(st.type), sends(st.type), st.publishes};
  }
}

}  // namespace ccforge::semantics
