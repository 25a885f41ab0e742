#include "smt/smtlib.hpp"

#include <algorithm>
#include <cctype>

namespace ccforge::smt {
namespace {

bool simpleSymbol(const std::string& s) {
  return !s.empty() && !std::isdigit(static_cast<unsigned char>(s[0])) && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-';
  });
}

void printSymbol(std::ostream& out, const std::string& s) {
  if (simpleSymbol(s))
    out << s;
  else
    out << '|' << s << '|';  // names never contain '|' or '\'
}

class Printer {
 public:
  Printer(std::ostream& out, const TermStore& terms) : out_(out), terms_(terms) {}

  void print(Term t) {
    const Node& n = terms_.node(t);
    switch (n.op) {
      case Op::BoolConst: out_ << (n.value ? "true" : "false"); return;
      case Op::IntConst:
        if (n.value < 0)
          out_ << "(- " << -n.value << ')';
        else
          out_ << n.value;
        return;
      case Op::Var: printSymbol(out_, terms_.varName(n)); return;
      case Op::Not: return apply("not", n);
      case Op::And: return apply("and", n);
      case Op::Or: return apply("or", n);
      case Op::Ite: return apply("ite", n);
      case Op::Eq: return apply("=", n);
      case Op::Lt: return apply("<", n);
      case Op::Le: return apply("<=", n);
      case Op::Add: return apply("+", n);
      case Op::Sub: return apply("-", n);
    }
  }

 private:
  void apply(const char* op, const Node& n) {
    out_ << '(' << op;
    for (uint32_t i = 0; i < n.kidCount; ++i) {
      out_ << ' ';
      print(terms_.kid(n, i));
    }
    out_ << ')';
  }

  std::ostream& out_;
  const TermStore& terms_;
};

}  // namespace

void printSmtLib(std::ostream& out, const Query& query) {
  out << "; ccforge query: " << query.name << "\n";
  out << "(set-logic " << query.logic << ")\n";
  const TermStore& terms = query.terms;
  for (uint32_t id = 0; id < terms.size(); ++id) {
    const Node& n = terms.node(Term{id});
    if (n.op != Op::Var) continue;
    out << "(declare-fun ";
    printSymbol(out, terms.varName(n));
    out << (n.sort == Sort::Bool ? " () Bool)\n" : " () Int)\n");
  }
  Printer printer(out, terms);
  for (Term t : query.assertions) {
    out << "(assert ";
    printer.print(t);
    out << ")\n";
  }
  out << "(check-sat)\n(exit)\n";
}

}  // namespace ccforge::smt
