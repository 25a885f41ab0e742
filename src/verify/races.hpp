// Check 4: two accesses to the same chunk of one rank, at least one a write, by steps that
// happens-before (step_graph.hpp) does not order. Checked per tile iteration: different tile
// iterations touch disjoint elements of every chunk.
#pragma once

#include <cstdint>
#include <vector>

#include "semantics/collective.hpp"
#include "verify/findings.hpp"
#include "verify/step_ref.hpp"
#include "verify/step_graph.hpp"

namespace ccforge::verify {

struct RaceResult {
  size_t races = 0;
  bool complete = true;  // false: the search budget ran out before every pair was decided
};

// `searchBudget` (node visits of the precise search) is shared by the call forms of one file.
RaceResult checkRaces(const semantics::LoadedProgram& index, const StepGraph& graph, semantics::CallForm form,
                      const std::vector<semantics::RankLayout>& layouts, uint64_t& searchBudget, Findings& findings);

}  // namespace ccforge::verify
