// A solver backend that gives the same answer to every query (a model of zeros when sat): lets
// tests of the engine provoke agreement, disagreement and timeouts without a real solver.
#pragma once

#include "smt/solver.hpp"

namespace ccforge::test {

class FixedSolver final : public smt::Solver {
 public:
  FixedSolver(smt::SolverKind kind, smt::Answer answer) : kind_(kind), answer_(answer) {}
  smt::SolverKind kind() const override { return kind_; }
  smt::SolverResult check(const smt::Query& q, const smt::Limits&) const override {
    smt::SolverResult r{kind_, answer_, answer_ == smt::Answer::Unknown ? "timeout: no answer within 1 ms" : "", 0, {}};
    if (answer_ == smt::Answer::Sat) r.model.assign(q.wanted.size(), 0);
    return r;
  }

 private:
  smt::SolverKind kind_;
  smt::Answer answer_;
};

}  // namespace ccforge::test
