#include "verify/smt/wait_description.hpp"

#include <fmt/format.h>

#include "ir/names.hpp"

namespace ccforge::smt {

std::string waitDescription(const verify::ProgramIndex& index, const verify::BlockedThreadBlock& b) {
  switch (b.kind) {
    case verify::WaitKind::Dependency: {
      const int32_t steps = index.stepsOf(b.on);
      return fmt::format("waits for tb {} to finish step {} of tile {} (hasdep flag)", index.idOf(b.on),
                         b.flagNeeded % steps, b.flagNeeded / steps);
    }
    case verify::WaitKind::Data:
      return b.on < 0 ? "waits for data on a connection it does not have"
                      : fmt::format("waits for data on connection {}", index.connections()[b.on].describe());
    case verify::WaitKind::Slot:
      return b.on < 0 ? "waits for a slot on a connection it does not have"
                      : fmt::format("waits for a free slot on connection {}", index.connections()[b.on].describe());
  }
  return "";
}

verify::StepRef blockedStepRef(const verify::ProgramIndex& index, const verify::BlockedThreadBlock& b, int32_t unit) {
  const uint32_t s = index.firstStep(b.tb) + static_cast<uint32_t>(b.step);
  std::string role = fmt::format("'{}' {}", ir::opTypeName(index.step(s).type), waitDescription(index, b));
  if (unit > 0) role += fmt::format(" (unit {})", unit);
  return index.ref(s, std::move(role), b.tile);
}

}  // namespace ccforge::smt
