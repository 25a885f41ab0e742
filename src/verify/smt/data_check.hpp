// The race and postcondition checks by SMT (encoding 2), per call form: can some interleaving
// make an output chunk differ from the value it has in another one (a race that changes the
// result), and can some interleaving make it differ from the postcondition? Every sat answer's
// schedule is replayed and must reach the outputs the model claims.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "semantics/collective.hpp"
#include "verify/box_layout.hpp"
#include "verify/findings.hpp"
#include "verify/step_ref.hpp"
#include "verify/report.hpp"
#include "smt/query_runner.hpp"

namespace ccforge::verify::smt {

struct DataCheckInput {
  const semantics::LoadedProgram& index;
  const std::optional<semantics::Collective>& collective;
  const std::vector<semantics::CallForm>& forms;
  const std::vector<std::array<int32_t, 3>>& bufferLengths;
  int32_t slotsChecked = 2;
  const verify::BoxLayout& boxes;  // where slot back-pressure orders data
};

struct SmtDataResult {
  verify::CheckStatus races = verify::CheckStatus::Passed, postcondition = verify::CheckStatus::Passed;
  std::string racesNote, postconditionNote;
  std::vector<verify::SmtQueryRecord> queries;
  std::vector<verify::Witness> witnesses;
  std::vector<std::string> internalErrors;  // solvers that disagree, witnesses that do not replay
};

// Violations go to `findings` (rules race.changes-result and postcondition.interleaving).
SmtDataResult checkDataSmt(const DataCheckInput& input, ccforge::smt::QueryRunner& runner, verify::Findings& findings);

}  // namespace ccforge::verify::smt
