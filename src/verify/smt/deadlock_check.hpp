// The deadlock check by SMT: encoding 1 for every configuration the size window reaches at the
// checked slot count, encoding 3 (the smallest deadlock-free slot count, each answer proved:
// unsat at it, sat below it) and encoding 4 (every tile-iteration count).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "verify/report.hpp"
#include "verify/smt/deadlock_queries.hpp"
#include "verify/smt/parametric.hpp"

namespace ccforge::verify::smt {

struct SmtDeadlockResult {
  verify::CheckStatus status = verify::CheckStatus::Inconclusive;
  std::string note;
  std::vector<ConfigurationAnswer> answers;     // at the checked slot count, per configuration
  std::optional<ConfigurationAnswer> deadlock;  // the first configuration that deadlocks
  // The smallest deadlock-free slot count: decided (nullopt value: none up to 64), with its proof.
  bool minimumSlotsDecided = false;
  std::optional<int32_t> minimumSlots;
  std::string minimumSlotsProof;
  int32_t maxTilesChecked = 0;
  ParametricResult parametric;
  std::vector<std::string> internalErrors;  // solvers that disagree, witnesses that do not replay
};

SmtDeadlockResult checkDeadlockSmt(const semantics::LoadedProgram& index, int32_t slotsChecked,
                                   ccforge::smt::QueryRunner& runner, DeadlockQueries& queries);

}  // namespace ccforge::verify::smt
