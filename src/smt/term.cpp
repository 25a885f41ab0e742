#include "smt/term.hpp"

#include <stdexcept>

namespace ccforge::smt {

TermStore::TermStore() {
  nodes_.push_back(Node{Op::BoolConst, Sort::Bool, 0, 0, 0});
  nodes_.push_back(Node{Op::BoolConst, Sort::Bool, 1, 0, 0});
}

Term TermStore::make(Op op, Sort sort, int64_t value, const std::vector<Term>& kids) {
  Node n{op, sort, value, static_cast<uint32_t>(kids_.size()), static_cast<uint32_t>(kids.size())};
  kids_.insert(kids_.end(), kids.begin(), kids.end());
  nodes_.push_back(n);
  return Term{static_cast<uint32_t>(nodes_.size() - 1)};
}

Term TermStore::var(Sort sort, std::string name) {
  varNames_.push_back(std::move(name));
  return make(Op::Var, sort, static_cast<int64_t>(varNames_.size() - 1), {});
}

Term TermStore::boolVar(std::string name) { return var(Sort::Bool, std::move(name)); }
Term TermStore::intVar(std::string name) { return var(Sort::Int, std::move(name)); }
Term TermStore::intConst(int64_t v) { return make(Op::IntConst, Sort::Int, v, {}); }

Term TermStore::notTerm(Term a) {
  const Node& n = node(a);
  if (n.op == Op::BoolConst) return boolConst(n.value == 0);
  if (n.op == Op::Not) return kid(n, 0);
  return make(Op::Not, Sort::Bool, 0, {a});
}

// And/Or: drop neutral constants, absorb on the dominant one, flatten nested ones of the same kind.
Term TermStore::junction(Op op, const std::vector<Term>& terms) {
  const Term neutral = op == Op::And ? kTrue : kFalse, dominant = op == Op::And ? kFalse : kTrue;
  std::vector<Term> kept;
  kept.reserve(terms.size());
  for (Term t : terms) {
    if (t == dominant) return dominant;
    if (t == neutral) continue;
    const Node& n = node(t);
    if (n.op == op) {
      for (uint32_t i = 0; i < n.kidCount; ++i) kept.push_back(kid(n, i));
    } else {
      kept.push_back(t);
    }
  }
  if (kept.empty()) return neutral;
  if (kept.size() == 1) return kept.front();
  return make(op, Sort::Bool, 0, kept);
}

Term TermStore::andTerm(const std::vector<Term>& terms) { return junction(Op::And, terms); }
Term TermStore::orTerm(const std::vector<Term>& terms) { return junction(Op::Or, terms); }

Term TermStore::ite(Term c, Term a, Term b) {
  if (sort(a) != sort(b) || sort(c) != Sort::Bool) throw std::logic_error("ite: sorts do not match");
  if (isTrue(c) || a == b) return a;
  if (isFalse(c)) return b;
  if (sort(a) == Sort::Bool) {
    if (isTrue(a) && isFalse(b)) return c;
    if (isFalse(a) && isTrue(b)) return notTerm(c);
  }
  return make(Op::Ite, sort(a), 0, {c, a, b});
}

Term TermStore::compare(Op op, Term a, Term b) {
  if (sort(a) != Sort::Int || sort(b) != Sort::Int) throw std::logic_error("comparison of non-integer terms");
  const Node &x = node(a), &y = node(b);
  if (x.op == Op::IntConst && y.op == Op::IntConst)
    return boolConst(op == Op::Lt ? x.value < y.value : op == Op::Le ? x.value <= y.value : x.value == y.value);
  if (a == b) return boolConst(op != Op::Lt);
  return make(op, Sort::Bool, 0, {a, b});
}

Term TermStore::eq(Term a, Term b) {
  if (sort(a) == Sort::Bool && sort(b) == Sort::Bool) {
    if (a == b) return kTrue;
    if (isConst(a)) return isTrue(a) ? b : notTerm(b);
    if (isConst(b)) return isTrue(b) ? a : notTerm(a);
    return make(Op::Eq, Sort::Bool, 0, {a, b});
  }
  return compare(Op::Eq, a, b);
}
Term TermStore::lt(Term a, Term b) { return compare(Op::Lt, a, b); }
Term TermStore::le(Term a, Term b) { return compare(Op::Le, a, b); }

Term TermStore::add(const std::vector<Term>& terms) {
  std::vector<Term> kept;
  int64_t constant = 0;
  for (Term t : terms) {
    if (sort(t) != Sort::Int) throw std::logic_error("sum of non-integer terms");
    if (node(t).op == Op::IntConst)
      constant += node(t).value;
    else
      kept.push_back(t);
  }
  if (constant != 0 || kept.empty()) kept.push_back(intConst(constant));
  if (kept.size() == 1) return kept.front();
  return make(Op::Add, Sort::Int, 0, kept);
}

Term TermStore::sub(Term a, Term b) {
  if (sort(a) != Sort::Int || sort(b) != Sort::Int) throw std::logic_error("difference of non-integer terms");
  if (node(a).op == Op::IntConst && node(b).op == Op::IntConst) return intConst(node(a).value - node(b).value);
  return make(Op::Sub, Sort::Int, 0, {a, b});
}

Term TermStore::countTrue(const std::vector<Term>& terms) {
  std::vector<Term> summands;
  summands.reserve(terms.size());
  const Term one = intConst(1), zero = intConst(0);
  for (Term t : terms) summands.push_back(ite(t, one, zero));
  return add(summands);
}

}  // namespace ccforge::smt
