// One satisfiability question: a set of assertions over a TermStore, with a stable name that
// identifies it in reports and in --dump-smt file names.
#pragma once

#include <string>
#include <vector>

#include "smt/term.hpp"

namespace ccforge::smt {

struct Query {
  std::string name;              // e.g. "deadlock tiles=1 maxAllowedCount=71 slots=2"
  std::string logic = "QF_LIA";  // SMT-LIB logic both solvers are told
  TermStore terms;
  std::vector<Term> assertions;
  // Terms whose values a satisfying model must report (the witness), in this order.
  std::vector<Term> wanted;

  void require(Term t) { assertions.push_back(t); }
};

}  // namespace ccforge::smt
