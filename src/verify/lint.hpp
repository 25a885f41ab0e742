// Check 1: the format and the runtime profile's limits (msccl-ir.md §1), plus whether the
// program is sound enough for the semantic checks to run on it.
#pragma once

#include <array>
#include <optional>
#include <vector>

#include "semantics/collective.hpp"
#include "ir/model.hpp"
#include "ir/reader.hpp"
#include "semantics/loaded_program.hpp"
#include "verify/findings.hpp"
#include "verify/options.hpp"

namespace ccforge::verify {

struct LintResult {
  // Chunks each rank's steps may address, by ir::Buffer (input, output, scratch); empty when
  // the program did not load.
  std::vector<std::array<int32_t, 3>> bufferLengths;
};

// Reports the load's structural issues, then (when it loaded) the profile's limits on the
// loaded form.
LintResult lint(const semantics::LoadResult& load, const ir::Algorithm& algo,
                const std::vector<ir::RuntimeParserIssue>& parserIssues,
                const std::optional<semantics::Collective>& collective, const Options& options, Findings& findings);

}  // namespace ccforge::verify
