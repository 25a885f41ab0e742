// How many generated programs a block of seeds holds: 1000 by default; CCFORGE_PROPERTY_PROGRAMS
// sets it (a longer search, or a shorter one for the sanitizer pass of scripts/test).
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace ccforge::property {

constexpr int kDefaultProgramsPerBlock = 1000;
inline int programsPerBlock() {
  const char* n = std::getenv("CCFORGE_PROPERTY_PROGRAMS");
  return n ? std::max(1, std::atoi(n)) : kDefaultProgramsPerBlock;
}

// Checks seeds first..first+count-1 with `check(seed, details)`, which returns what went wrong
// (empty: nothing) and fills `details` (the program, the report). The first five failures are
// printed in full with how to replay them (`replayTest`, the hidden test case that does).
template <class Check>
void checkSeedBlock(uint64_t first, int count, const std::string& replayTest, Check&& check) {
  int failures = 0;
  for (uint64_t seed = first; seed < first + static_cast<uint64_t>(count); ++seed) {
    std::string details;
    const std::vector<std::string> problems = check(seed, details);
    if (problems.empty()) continue;
    if (++failures > 5) continue;
    std::string all;
    for (const std::string& p : problems) all += "  - " + p + "\n";
    FAIL_CHECK("seed " << seed << " (replay: CCFORGE_PROPERTY_SEED=" << seed << " property_tests \"" << replayTest
                       << "\"):\n"
                       << all << details);
  }
  CHECK(failures == 0);
}

}  // namespace ccforge::property
