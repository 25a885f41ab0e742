// Whether the calls a file's size window admits stay within the tile iterations the runtime's
// dependency flags can count (runtime_profile.hpp maxTileIterations; docs/msccl-ir.md).
#pragma once

#include "ir/model.hpp"
#include "semantics/runtime_profile.hpp"
#include "verify/findings.hpp"

namespace ccforge::verify {

void checkTileIterations(const ir::Algorithm& algo, const semantics::RuntimeProfile& profile, Findings& findings);

}  // namespace ccforge::verify
