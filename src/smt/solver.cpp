#include "smt/solver.hpp"

namespace ccforge::smt {

std::string_view solverName(SolverKind kind) { return kind == SolverKind::Z3 ? "z3" : "cvc5"; }

std::optional<SolverKind> parseSolverKind(std::string_view name) {
  if (name == "z3") return SolverKind::Z3;
  if (name == "cvc5") return SolverKind::Cvc5;
  return std::nullopt;
}

std::string_view answerName(Answer a) {
  switch (a) {
    case Answer::Sat: return "sat";
    case Answer::Unsat: return "unsat";
    case Answer::Unknown: return "unknown";
    case Answer::Error: return "error";
  }
  return "?";
}

std::unique_ptr<Solver> makeZ3Solver();
std::unique_ptr<Solver> makeCvc5Solver();

std::unique_ptr<Solver> makeSolver(SolverKind kind) {
  return kind == SolverKind::Z3 ? makeZ3Solver() : makeCvc5Solver();
}

}  // namespace ccforge::smt
