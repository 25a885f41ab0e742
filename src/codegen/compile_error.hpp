// A program the compiler cannot turn into a file the target runtime accepts (a directive that
// contradicts the runtime's rules, a limit no schedule can meet). The message says which DSL
// call or which (rank, thread block) is concerned and what would help.
#pragma once

#include <stdexcept>
#include <string>

namespace ccforge::codegen {

class CompileError : public std::runtime_error {
 public:
  explicit CompileError(const std::string& message) : std::runtime_error(message) {}
};

// Channel assignment found no channel whose connections can take a chain of transfers: the one
// failure that fusing with another pairing of peers can cure (compile() in compiler.cpp).
class NoChannelError : public CompileError {
 public:
  using CompileError::CompileError;
};

}  // namespace ccforge::codegen
