// The runtime's algorithm selection over a directory (msccl-ir.md §2 "Selection and fallback"):
// for each call, the first file in path order whose collective, rank count, call form and size
// window match is used. A later file whose window overlaps an earlier one is (partly) shadowed.
#pragma once

#include <vector>

#include "ir/model.hpp"
#include "semantics/runtime_profile.hpp"
#include "verify/report.hpp"

namespace ccforge::verify {

struct LoadedAlgorithm {
  const ir::Algorithm* algorithm;  // nullptr for a file that did not read
  FileReport* report;
};

// `files` are in the order the runtime loads them (sorted by path).
void checkSelection(const std::vector<LoadedAlgorithm>& files, const RuntimeProfile& profile);

}  // namespace ccforge::verify
