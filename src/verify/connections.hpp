// Check 3: one sending and one receiving thread block per connection, and per connection the
// sends and receives pair up in FIFO order with equal cnt.
#pragma once

#include "verify/findings.hpp"
#include "verify/step_ref.hpp"

namespace ccforge::verify {

// Returns false when a connection has several owners: the program then has no defined
// execution and the semantic checks must not run.
bool checkConnections(const semantics::LoadedProgram& index, Findings& findings);

}  // namespace ccforge::verify
