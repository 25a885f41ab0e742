// The Z3 backend (Z3 4.8.12 C++ API).
#include <fmt/format.h>
#include <z3++.h>

#include <chrono>
#include <memory>
#include <optional>

#include "smt/solver.hpp"

namespace ccforge::smt {
namespace {

class Z3Translation {
 public:
  Z3Translation(z3::context& ctx, const TermStore& terms) : ctx_(ctx), terms_(terms), done_(terms.size()) {}

  z3::expr operator()(Term t) {
    if (done_[t.id]) return *done_[t.id];
    const Node& n = terms_.node(t);
    z3::expr e = build(n);
    done_[t.id] = e;
    return e;
  }

 private:
  z3::expr_vector kids(const Node& n) {
    z3::expr_vector v(ctx_);
    for (uint32_t i = 0; i < n.kidCount; ++i) v.push_back((*this)(terms_.kid(n, i)));
    return v;
  }
  z3::expr kid(const Node& n, uint32_t i) { return (*this)(terms_.kid(n, i)); }

  z3::expr build(const Node& n) {
    switch (n.op) {
      case Op::BoolConst: return ctx_.bool_val(n.value != 0);
      case Op::IntConst: return ctx_.int_val(static_cast<int64_t>(n.value));
      case Op::Var:
        return n.sort == Sort::Bool ? ctx_.bool_const(terms_.varName(n).c_str())
                                    : ctx_.int_const(terms_.varName(n).c_str());
      case Op::Not: return !kid(n, 0);
      case Op::And: return z3::mk_and(kids(n));
      case Op::Or: return z3::mk_or(kids(n));
      case Op::Ite: return z3::ite(kid(n, 0), kid(n, 1), kid(n, 2));
      case Op::Eq: return kid(n, 0) == kid(n, 1);
      case Op::Lt: return kid(n, 0) < kid(n, 1);
      case Op::Le: return kid(n, 0) <= kid(n, 1);
      case Op::Add: {
        z3::expr_vector v = kids(n);
        std::vector<Z3_ast> args(v.size());
        for (unsigned i = 0; i < v.size(); ++i) args[i] = v[i];
        return z3::expr(ctx_, Z3_mk_add(ctx_, static_cast<unsigned>(args.size()), args.data()));
      }
      case Op::Sub: return kid(n, 0) - kid(n, 1);
    }
    throw std::logic_error("unknown term operator");
  }

  z3::context& ctx_;
  const TermStore& terms_;
  std::vector<std::optional<z3::expr>> done_;
};

uint64_t rlimitCount(const z3::solver& solver) {
  z3::stats st = solver.statistics();
  for (unsigned i = 0; i < st.size(); ++i)
    if (st.key(i) == "rlimit count")
      return st.is_uint(i) ? st.uint_value(i) : static_cast<uint64_t>(st.double_value(i));
  return 0;
}

// Z3 4.8.12 names an exhausted rlimit "canceled", "max. resource limit exceeded" or (the simple
// solver) just "unknown"; the rlimit count it reports tells.
std::string unknownReason(const z3::solver& solver, const Limits& limits, double seconds) {
  const std::string reason = solver.reason_unknown();
  if (limits.rlimit > 0 && rlimitCount(solver) >= limits.rlimit)
    return fmt::format("resource limit reached (rlimit {})", limits.rlimit);
  if (reason == "timeout" || reason == "canceled" || seconds * 1000 >= limits.timeoutMs)
    return fmt::format("timeout: no answer within {} ms", limits.timeoutMs);
  return "incomplete: z3 says " + reason;
}

// Creating a Z3 context costs tens of milliseconds, more than most of our queries: small
// queries share one context per solver object (a fresh solver each time); large ones get their own,
// so that its memory goes when they are done, and so do queries with an rlimit, which Z3 counts
// per context.
constexpr size_t kSharedContextTerms = 100'000;

class Z3Solver final : public Solver {
 public:
  SolverKind kind() const override { return SolverKind::Z3; }

  SolverResult check(const Query& query, const Limits& limits) const override {
    SolverResult r;
    r.solver = SolverKind::Z3;
    auto start = std::chrono::steady_clock::now();
    auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
    try {
      std::unique_ptr<z3::context> own;
      if (query.terms.size() > kSharedContextTerms || limits.rlimit > 0)
        own = std::make_unique<z3::context>();
      else if (!shared_)
        shared_ = std::make_unique<z3::context>();
      z3::context& ctx = own ? *own : *shared_;
      z3::solver solver(ctx, z3::solver::simple());
      z3::params params(ctx);
      params.set("timeout", limits.timeoutMs);
      if (limits.rlimit > 0) params.set("rlimit", static_cast<unsigned>(std::min<uint64_t>(limits.rlimit, UINT32_MAX)));
      solver.set(params);
      Z3Translation translate(ctx, query.terms);
      for (Term t : query.assertions) solver.add(translate(t));
      switch (solver.check()) {
        case z3::sat: {
          r.answer = Answer::Sat;
          z3::model m = solver.get_model();
          for (Term t : query.wanted) {
            z3::expr v = m.eval(translate(t), true);
            r.model.push_back(v.is_bool() ? (v.is_true() ? 1 : 0) : v.get_numeral_int64());
          }
          break;
        }
        case z3::unsat: r.answer = Answer::Unsat; break;
        case z3::unknown:
          r.answer = Answer::Unknown;
          r.reason = unknownReason(solver, limits, elapsed());
          break;
      }
    } catch (const z3::exception& e) {
      r.answer = Answer::Error;
      r.reason = std::string("z3: ") + e.msg();
    }
    r.seconds = elapsed();
    return r;
  }

 private:
  mutable std::unique_ptr<z3::context> shared_;
};

}  // namespace

std::unique_ptr<Solver> makeZ3Solver() { return std::make_unique<Z3Solver>(); }

}  // namespace ccforge::smt
