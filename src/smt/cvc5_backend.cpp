// The cvc5 backend (cvc5 1.0.3 C++ API: Solver::mkTerm(Kind, {children}), Result::
// getUnknownExplanation()).
#include <cvc5/cvc5.h>
#include <fmt/format.h>

#include <chrono>
#include <optional>
#include <sstream>

#include "smt/solver.hpp"

namespace ccforge::smt {
namespace {

class Cvc5Translation {
 public:
  Cvc5Translation(cvc5::Solver& solver, const TermStore& terms) : solver_(solver), terms_(terms), done_(terms.size()) {}

  cvc5::Term operator()(Term t) {
    if (done_[t.id]) return *done_[t.id];
    cvc5::Term e = build(terms_.node(t));
    done_[t.id] = e;
    return e;
  }

 private:
  std::vector<cvc5::Term> kids(const Node& n) {
    std::vector<cvc5::Term> v;
    v.reserve(n.kidCount);
    for (uint32_t i = 0; i < n.kidCount; ++i) v.push_back((*this)(terms_.kid(n, i)));
    return v;
  }

  cvc5::Term build(const Node& n) {
    switch (n.op) {
      case Op::BoolConst: return solver_.mkBoolean(n.value != 0);
      case Op::IntConst: return solver_.mkInteger(n.value);
      case Op::Var:
        return solver_.mkConst(n.sort == Sort::Bool ? solver_.getBooleanSort() : solver_.getIntegerSort(),
                               terms_.varName(n));
      case Op::Not: return solver_.mkTerm(cvc5::NOT, kids(n));
      case Op::And: return solver_.mkTerm(cvc5::AND, kids(n));
      case Op::Or: return solver_.mkTerm(cvc5::OR, kids(n));
      case Op::Ite: return solver_.mkTerm(cvc5::ITE, kids(n));
      case Op::Eq: return solver_.mkTerm(cvc5::EQUAL, kids(n));
      case Op::Lt: return solver_.mkTerm(cvc5::LT, kids(n));
      case Op::Le: return solver_.mkTerm(cvc5::LEQ, kids(n));
      case Op::Add: return solver_.mkTerm(cvc5::ADD, kids(n));
      case Op::Sub: return solver_.mkTerm(cvc5::SUB, kids(n));
    }
    throw std::logic_error("unknown term operator");
  }

  cvc5::Solver& solver_;
  const TermStore& terms_;
  std::vector<std::optional<cvc5::Term>> done_;
};

std::string unknownReason(cvc5::UnknownExplanation e, const Limits& limits) {
  switch (e) {
    case cvc5::UnknownExplanation::TIMEOUT: return fmt::format("timeout: no answer within {} ms", limits.timeoutMs);
    case cvc5::UnknownExplanation::RESOURCEOUT: return fmt::format("resource limit reached (rlimit {})", limits.rlimit);
    case cvc5::UnknownExplanation::MEMOUT: return "out of memory";
    case cvc5::UnknownExplanation::INCOMPLETE: return "incomplete: cvc5 gave up";
    default: {
      std::ostringstream s;
      s << e;
      return "cvc5 says " + s.str();
    }
  }
}

class Cvc5Solver final : public Solver {
 public:
  SolverKind kind() const override { return SolverKind::Cvc5; }

  SolverResult check(const Query& query, const Limits& limits) const override {
    SolverResult r;
    r.solver = SolverKind::Cvc5;
    auto start = std::chrono::steady_clock::now();
    try {
      cvc5::Solver solver;
      solver.setOption("produce-models", "true");
      solver.setOption("tlimit-per", std::to_string(limits.timeoutMs));
      if (limits.rlimit > 0) solver.setOption("rlimit-per", std::to_string(limits.rlimit));
      solver.setLogic(query.logic);
      Cvc5Translation translate(solver, query.terms);
      for (Term t : query.assertions) solver.assertFormula(translate(t));
      cvc5::Result result = solver.checkSat();
      if (result.isSat()) {
        r.answer = Answer::Sat;
        for (Term t : query.wanted) {
          cvc5::Term v = solver.getValue(translate(t));
          r.model.push_back(v.getSort().isBoolean() ? (v.getBooleanValue() ? 1 : 0) : v.getInt64Value());
        }
      } else if (result.isUnsat()) {
        r.answer = Answer::Unsat;
      } else {
        r.answer = Answer::Unknown;
        r.reason = unknownReason(result.getUnknownExplanation(), limits);
      }
    } catch (const cvc5::CVC5ApiException& e) {
      r.answer = Answer::Error;
      r.reason = std::string("cvc5: ") + e.what();
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
  }
};

}  // namespace

std::unique_ptr<Solver> makeCvc5Solver() { return std::make_unique<Cvc5Solver>(); }

}  // namespace ccforge::smt

// cvc5's arithmetic library (CLN) allocates a string at load time that it never frees. Under
// LeakSanitizer that one-time allocation would fail every sanitized program linking cvc5, so it
// is suppressed here, beside the only code that brings cvc5 in; our own leaks are still reported.
#if defined(__SANITIZE_ADDRESS__)
#define CCFORGE_LSAN_ACTIVE 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CCFORGE_LSAN_ACTIVE 1
#endif
#endif
#ifdef CCFORGE_LSAN_ACTIVE
extern "C" const char* __lsan_default_suppressions() { return "leak:libcln.so\n"; }
extern "C" const char* __lsan_default_options() { return "print_suppressions=0"; }
#endif
