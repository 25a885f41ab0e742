// Encoding 1 per configuration, with every sat answer's witness replayed in the simulator's
// semantics; answers are kept, so the searches over slot and tile counts never ask twice.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "verify/kahn_simulation.hpp"
#include "verify/step_ref.hpp"
#include "verify/report.hpp"
#include "verify/smt/deadlock_encoding.hpp"
#include "smt/query_runner.hpp"

namespace ccforge::verify::smt {

struct ConfigurationAnswer {
  verify::SimulationConfig config;
  ccforge::smt::QueryOutcome outcome;
  std::optional<DeadlockWitness> witness;  // sat: read from the model
  std::string replayError;                 // non-empty: the witness did not replay (a bug)
};

class DeadlockQueries {
 public:
  DeadlockQueries(const semantics::LoadedProgram& index, ccforge::smt::QueryRunner& runner)
      : index_(index), runner_(runner) {}

  const ConfigurationAnswer& check(const verify::SimulationConfig& config);
  // Every configuration asked so far, by (tiles, maxAllowedCount, slots).
  const std::map<std::tuple<int32_t, int32_t, int32_t>, ConfigurationAnswer>& answers() const { return answers_; }
  // Every query asked so far, in the order asked, for the report.
  const std::vector<verify::SmtQueryRecord>& records() const { return records_; }
  void record(const std::string& check, const ccforge::smt::QueryOutcome& outcome);

 private:
  const semantics::LoadedProgram& index_;
  ccforge::smt::QueryRunner& runner_;
  std::map<std::tuple<int32_t, int32_t, int32_t>, ConfigurationAnswer> answers_;
  std::vector<verify::SmtQueryRecord> records_;
};

// The answer as a report records it.
verify::SmtQueryRecord queryRecord(const std::string& check, const ccforge::smt::QueryOutcome& outcome);

}  // namespace ccforge::verify::smt
