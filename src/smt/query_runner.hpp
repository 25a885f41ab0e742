// Runs queries on the configured solvers: one, or two as a cross-check (a sat from one and an
// unsat from the other is a disagreement). Optionally writes every query as .smt2 first.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "smt/solver.hpp"

namespace ccforge::smt {

struct RunSettings {
  std::vector<SolverKind> solvers{SolverKind::Z3};
  Limits limits;
  std::optional<std::filesystem::path> dumpDirectory;  // --dump-smt
  std::string dumpPrefix;  // names the program the queries are about (file names stay unique)
};

struct QueryOutcome {
  std::string name;
  // Sat/Unsat only when every solver gave that answer; Error when one failed; else Unknown.
  Answer answer = Answer::Unknown;
  bool disagreement = false;          // one solver said sat, another unsat
  std::string reason;                 // Unknown/Error/disagreement: every solver's answer and reason
  std::vector<SolverResult> results;  // one per solver, in the order of RunSettings::solvers
  // An assertion simplified to false while the query was built: unsat without asking a solver.
  bool decidedBySimplification = false;
  std::string dumpFile;  // where the query was written, if it was

  // The model of the first solver that said sat (empty if none did).
  const std::vector<int64_t>& model() const;
  double seconds() const;
  // "z3 unsat, cvc5 unknown (timeout: ...)" or "unsat by simplification": no timings, reports are deterministic.
  std::string summary() const;
};

class QueryRunner {
 public:
  // Solvers made from settings.solvers.
  explicit QueryRunner(RunSettings settings);
  // Given solvers (their kinds replace settings.solvers), e.g. a custom backend.
  QueryRunner(RunSettings settings, std::vector<std::shared_ptr<const Solver>> solvers);
  QueryOutcome run(const Query& query);
  const RunSettings& settings() const { return settings_; }

 private:
  std::string dumpFileName(const std::string& queryName);
  RunSettings settings_;
  std::vector<std::shared_ptr<const Solver>> solvers_;
};

}  // namespace ccforge::smt
