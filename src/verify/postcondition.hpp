// Check 5: the output a program computes under the runtime's semantics, compared with the
// collective's postcondition. A wrong chunk is reported with what it holds, what it should
// hold, and the chain of steps that produced it.
#pragma once

#include <vector>

#include "semantics/collective.hpp"
#include "verify/findings.hpp"
#include "verify/step_ref.hpp"
#include "verify/step_graph.hpp"

namespace ccforge::verify {

// Returns the number of wrong output chunks.
size_t checkPostcondition(const semantics::LoadedProgram& index, const StepGraph& graph,
                          const semantics::Collective& collective, semantics::CallForm form,
                          const std::vector<semantics::RankLayout>& layouts, Findings& findings);

}  // namespace ccforge::verify
