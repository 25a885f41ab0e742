// The solver-neutral interface: a query goes in, an answer that keeps its reason comes out.
// One backend per solver (z3_backend.cpp, cvc5_backend.cpp: the only code that includes their
// headers); each call builds a fresh solver instance (Z3 keeps one context per backend object for
// small queries), so answers depend only on the query and the sequence of earlier ones.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "smt/query.hpp"

namespace ccforge::smt {

enum class SolverKind : uint8_t { Z3, Cvc5 };
std::string_view solverName(SolverKind kind);
std::optional<SolverKind> parseSolverKind(std::string_view name);

// Every call has both limits; a limit that is hit makes the answer Unknown with the reason.
struct Limits {
  uint32_t timeoutMs = 60'000;  // wall clock per query
  uint64_t rlimit = 0;          // deterministic resource limit (Z3 rlimit, cvc5 rlimit-per); 0: none
};

// Sat, unsat, unknown (timeout, resource limit, incompleteness: see reason), or error (the
// solver rejected the query or failed: see reason).
enum class Answer : uint8_t { Sat, Unsat, Unknown, Error };
std::string_view answerName(Answer a);

struct SolverResult {
  SolverKind solver = SolverKind::Z3;
  Answer answer = Answer::Error;
  std::string reason;  // Unknown/Error: why, in words
  double seconds = 0;  // wall clock of the solver call
  // Sat only: the values of query.wanted, in order (Booleans as 0/1).
  std::vector<int64_t> model;
};

class Solver {
 public:
  virtual ~Solver() = default;
  virtual SolverKind kind() const = 0;
  virtual SolverResult check(const Query& query, const Limits& limits) const = 0;
};

std::unique_ptr<Solver> makeSolver(SolverKind kind);

}  // namespace ccforge::smt
