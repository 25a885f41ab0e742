// Solver-neutral terms: the small fragment our encodings need (Booleans, integer variables and
// constants, difference constraints, sums of ite(b, 1, 0) for counting). Every constructor
// simplifies locally (constants fold, nested and/or flatten), so trivially decided parts of an
// encoding never reach a solver. Terms live in the TermStore that made them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ccforge::smt {

enum class Sort : uint8_t { Bool, Int };
enum class Op : uint8_t { BoolConst, IntConst, Var, Not, And, Or, Ite, Eq, Lt, Le, Add, Sub };

struct Term {
  uint32_t id = 0;
  bool operator==(const Term&) const = default;
};

struct Node {
  Op op = Op::BoolConst;
  Sort sort = Sort::Bool;
  int64_t value = 0;      // BoolConst: 0/1; IntConst: the value; Var: index into the variable names
  uint32_t firstKid = 0;  // children are kids()[firstKid, firstKid + kidCount)
  uint32_t kidCount = 0;
};

class TermStore {
 public:
  TermStore();

  Term boolVar(std::string name);
  Term intVar(std::string name);
  Term boolConst(bool b) const { return b ? kTrue : kFalse; }
  Term intConst(int64_t v);

  Term notTerm(Term a);
  Term andTerm(const std::vector<Term>& terms);
  Term orTerm(const std::vector<Term>& terms);
  Term implies(Term a, Term b) { return orTerm({notTerm(a), b}); }
  Term ite(Term c, Term a, Term b);
  Term eq(Term a, Term b);
  Term lt(Term a, Term b);
  Term le(Term a, Term b);
  Term add(const std::vector<Term>& terms);
  Term sub(Term a, Term b);
  // The number of true terms among `terms`, as a sum of ite(b, 1, 0): both solvers handle it
  // well, unlike Z3's pseudo-Boolean constraints, which cvc5 1.0.3 cannot read.
  Term countTrue(const std::vector<Term>& terms);

  const Node& node(Term t) const { return nodes_[t.id]; }
  Term kid(const Node& n, uint32_t i) const { return kids_[n.firstKid + i]; }
  Sort sort(Term t) const { return nodes_[t.id].sort; }
  bool isConst(Term t) const { return node(t).op == Op::BoolConst || node(t).op == Op::IntConst; }
  bool isTrue(Term t) const { return t == kTrue; }
  bool isFalse(Term t) const { return t == kFalse; }
  const std::string& varName(const Node& n) const { return varNames_[static_cast<size_t>(n.value)]; }
  size_t size() const { return nodes_.size(); }
  size_t variableCount() const { return varNames_.size(); }

 private:
  static constexpr Term kFalse{0}, kTrue{1};
  Term make(Op op, Sort sort, int64_t value, const std::vector<Term>& kids);
  Term var(Sort sort, std::string name);
  Term compare(Op op, Term a, Term b);
  Term junction(Op op, const std::vector<Term>& terms);

  std::vector<Node> nodes_;
  std::vector<Term> kids_;
  std::vector<std::string> varNames_;
};

}  // namespace ccforge::smt
