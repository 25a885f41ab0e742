// Random changes to a correct program (program_generator.hpp): a dependency dropped or moved, a
// cnt, offset, buffer or step type changed, a reduction chain split or joined, hasdep toggled, a nop
// added, steps swapped, moved to the front or dropped, other call forms declared. Most make it wrong.
#pragma once

#include <string>

#include "ir/model.hpp"
#include "rng.hpp"

namespace ccforge::property {

// Applies one random change to `algorithm` (gpus and tbs in id order) and describes it.
std::string mutate(Rng& rng, ir::Algorithm& algorithm);

}  // namespace ccforge::property
