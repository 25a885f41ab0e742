// Where a blocked thread block waits, in the words the deadlock report uses.
#pragma once

#include <string>

#include "verify/kahn_simulation.hpp"
#include "verify/step_ref.hpp"
#include "verify/report.hpp"

namespace ccforge::verify {

std::string waitDescription(const semantics::LoadedProgram& index, const BlockedThreadBlock& b);
// The step a block is blocked at, its role saying what it waits for; unit > 0 names the FIFO unit.
StepRef blockedStepRef(const semantics::LoadedProgram& index, const BlockedThreadBlock& b, int32_t unit);

}  // namespace ccforge::verify
