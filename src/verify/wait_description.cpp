#include "verify/wait_description.hpp"

#include <fmt/format.h>

#include "ir/names.hpp"

namespace ccforge::verify {

std::string waitDescription(const semantics::LoadedProgram& index, const BlockedThreadBlock& b) {
  switch (b.kind) {
    case WaitKind::Dependency:
      return fmt::format("waits for tb {} to finish step {} of tile {} (hasdep flag)", index.idOf(b.on),
                         semantics::FifoMachine::flagStep(b.flagNeeded),
                         semantics::FifoMachine::flagTile(b.flagNeeded));
    case WaitKind::Data:
      return b.on < 0 ? "waits for data on a connection it does not have"
                      : fmt::format("waits for data on connection {}", index.connections()[b.on].describe());
    case WaitKind::Slot:
      return b.on < 0 ? "waits for a slot on a connection it does not have"
                      : fmt::format("waits for a free slot on connection {}", index.connections()[b.on].describe());
  }
  return "";
}

StepRef blockedStepRef(const semantics::LoadedProgram& index, const BlockedThreadBlock& b, int32_t unit) {
  const uint32_t s = index.firstStep(b.tb) + static_cast<uint32_t>(b.step);
  std::string role = fmt::format("'{}' {}", ir::opTypeName(index.step(s).type), waitDescription(index, b));
  if (unit > 0) role += fmt::format(" (unit {})", unit);
  return stepRef(index, s, std::move(role), b.tile);
}

}  // namespace ccforge::verify
