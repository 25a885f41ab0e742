// Check 1: the format and the runtime profile's limits (msccl-ir.md §1), plus whether the
// program is sound enough for the semantic checks to run on it.
#pragma once

#include <array>
#include <optional>
#include <vector>

#include "semantics/collective.hpp"
#include "ir/model.hpp"
#include "ir/reader.hpp"
#include "verify/findings.hpp"
#include "verify/options.hpp"

namespace ccforge::verify {

struct LintResult {
  // Ranks, thread blocks, peers, channels and dependency targets are in range and unique:
  // the program can be indexed and simulated.
  bool structureSound = false;
  std::vector<int32_t> gpuOfRank;  // position in algo.gpus of <gpu id=r>
  // Chunks each rank's steps may address, by ir::Buffer (input, output, scratch).
  std::vector<std::array<int32_t, 3>> bufferLengths;
};

LintResult lint(const ir::Algorithm& algo, const std::vector<ir::RuntimeParserIssue>& parserIssues,
                const std::optional<Collective>& collective, const Options& options, Findings& findings);

}  // namespace ccforge::verify
