#include "smt/query_runner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <fstream>

#include "smt/smtlib.hpp"

namespace ccforge::smt {
namespace {

std::string sanitize(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.')
      out += c;
    else if (c == '=')
      out += '-';
    else if (out.empty() || out.back() != '_')
      out += '_';
  }
  return out;
}

}  // namespace

const std::vector<int64_t>& QueryOutcome::model() const {
  static const std::vector<int64_t> none;
  for (const SolverResult& r : results)
    if (r.answer == Answer::Sat) return r.model;
  return none;
}

double QueryOutcome::seconds() const {
  double total = 0;
  for (const SolverResult& r : results) total += r.seconds;
  return total;
}

std::string QueryOutcome::summary() const {
  if (decidedBySimplification) return "unsat by simplification";
  std::string out;
  for (const SolverResult& r : results) {
    if (!out.empty()) out += ", ";
    out += fmt::format("{} {}", solverName(r.solver), answerName(r.answer));
    if (!r.reason.empty()) out += fmt::format(" ({})", r.reason);
  }
  return out;
}

QueryRunner::QueryRunner(RunSettings settings) : settings_(std::move(settings)) {
  for (SolverKind kind : settings_.solvers) solvers_.push_back(makeSolver(kind));
}

QueryRunner::QueryRunner(RunSettings settings, std::vector<std::shared_ptr<const Solver>> solvers)
    : settings_(std::move(settings)), solvers_(std::move(solvers)) {
  settings_.solvers.clear();
  for (const auto& s : solvers_) settings_.solvers.push_back(s->kind());
}

std::string QueryRunner::dumpFileName(const std::string& queryName) {
  std::string prefix = sanitize(settings_.dumpPrefix);
  std::string name = prefix.empty() ? sanitize(queryName) : prefix + "." + sanitize(queryName);
  return (*settings_.dumpDirectory / (name + ".smt2")).string();
}

QueryOutcome QueryRunner::run(const Query& query) {
  QueryOutcome out;
  out.name = query.name;
  if (settings_.dumpDirectory) {
    out.dumpFile = dumpFileName(query.name);
    std::ofstream file(out.dumpFile);
    printSmtLib(file, query);
    file.flush();
    if (!file) throw std::runtime_error("cannot write " + out.dumpFile);
  }
  if (std::any_of(query.assertions.begin(), query.assertions.end(), [&](Term t) { return query.terms.isFalse(t); })) {
    out.answer = Answer::Unsat;
    out.decidedBySimplification = true;
    return out;
  }
  bool sat = false, unsat = false, error = false;
  for (const auto& solver : solvers_) {
    out.results.push_back(solver->check(query, settings_.limits));
    const SolverResult& r = out.results.back();
    sat = sat || r.answer == Answer::Sat;
    unsat = unsat || r.answer == Answer::Unsat;
    error = error || r.answer == Answer::Error;
  }
  out.disagreement = sat && unsat;
  if (error)
    out.answer = Answer::Error;
  else if (sat != unsat && std::all_of(out.results.begin(), out.results.end(),
                                       [&](const SolverResult& r) { return r.answer == out.results[0].answer; }))
    out.answer = sat ? Answer::Sat : Answer::Unsat;
  else
    out.answer = Answer::Unknown;
  if (out.answer != Answer::Sat && out.answer != Answer::Unsat) out.reason = out.summary();
  return out;
}

}  // namespace ccforge::smt
