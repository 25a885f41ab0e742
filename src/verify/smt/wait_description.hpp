// Where a blocked thread block waits, in the words the deadlock report uses.
#pragma once

#include <string>

#include "verify/kahn_simulation.hpp"
#include "verify/program_index.hpp"
#include "verify/report.hpp"

namespace ccforge::smt {

std::string waitDescription(const verify::ProgramIndex& index, const verify::BlockedThreadBlock& b);
// The step a block is blocked at, its role saying what it waits for; unit >= 0 names the FIFO unit.
verify::StepRef blockedStepRef(const verify::ProgramIndex& index, const verify::BlockedThreadBlock& b, int32_t unit);

}  // namespace ccforge::smt
