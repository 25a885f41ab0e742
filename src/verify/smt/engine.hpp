// The SMT engine as the verifier runs it (--engine smt|both): the deadlock check by encodings
// 1, 3 and 4, the race and postcondition checks by encoding 2. With --engine both every answer
// is compared with the simulation's (each deadlock query with a simulation of the same
// configuration); a disagreement, between the engines or between the two solvers, and a
// witness that does not replay are reported under the rule `engines.disagree` (exit 6).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "verify/findings.hpp"
#include "verify/options.hpp"
#include "verify/step_ref.hpp"
#include "verify/report.hpp"
#include "verify/smt/data_check.hpp"
#include "verify/smt/deadlock_queries.hpp"
#include "smt/query_runner.hpp"

namespace ccforge::verify::smt {

inline constexpr const char* kDisagreementRule = "engines.disagree";

class SmtEngine {
 public:
  SmtEngine(const semantics::LoadedProgram& index, const verify::Options& options, const std::string& source);

  // `simulation`: the simulation's result (--engine both) to compare with; nullptr for --engine smt,
  // whose outcome and violations then stand for the check.
  verify::CheckOutcome deadlock(int32_t slots, verify::Findings& findings, const verify::DeadlockSummary* simulation,
                                std::optional<verify::DeadlockSummary>& smtSummary);

  struct DataOutcomes {
    verify::CheckOutcome races, postcondition;
  };
  // `simulation`: the simulation's outcomes for races and postcondition (--engine both) or nullptr.
  DataOutcomes data(const DataCheckInput& input, verify::Findings& findings, const DataOutcomes* simulation);

  verify::SmtSummary takeSummary() { return std::move(summary_); }

 private:
  void disagree(verify::Findings& findings, verify::Check check, std::string message);
  void compareDeadlocks(verify::Findings& findings, const verify::DeadlockSummary& simulation,
                        const struct SmtDeadlockResult& smt);

  const semantics::LoadedProgram& index_;
  bool compare_;
  ccforge::smt::QueryRunner runner_;
  DeadlockQueries queries_;
  verify::SmtSummary summary_;
};

}  // namespace ccforge::verify::smt
