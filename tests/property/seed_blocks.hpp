// How many generated programs a block of seeds holds: 1000 by default; CCFORGE_PROPERTY_PROGRAMS
// sets it (a longer search, or a shorter one for the sanitizer pass of scripts/test).
#pragma once

#include <algorithm>
#include <cstdlib>

namespace ccforge::property {

constexpr int kDefaultProgramsPerBlock = 1000;
inline int programsPerBlock() {
  const char* n = std::getenv("CCFORGE_PROPERTY_PROGRAMS");
  return n ? std::max(1, std::atoi(n)) : kDefaultProgramsPerBlock;
}

}  // namespace ccforge::property
