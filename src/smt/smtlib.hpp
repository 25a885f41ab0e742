// Our own SMT-LIB 2 printer: a query as a standalone script that the z3 and cvc5 command-line
// tools both accept (set-logic, declarations in creation order, assertions, check-sat).
// Same query, same bytes.
#pragma once

#include <ostream>

#include "smt/query.hpp"

namespace ccforge::smt {

void printSmtLib(std::ostream& out, const Query& query);

}  // namespace ccforge::smt
