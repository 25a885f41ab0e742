// Misuse of the DSL: a stale reference, an uninitialised read, an index out of range, ...
// The message names the offending call (operation and arguments) and where the program made
// it: what() is the diagnostic line FILE:LINE:COLUMN: error: CALL: MESSAGE (ir/diagnostic.hpp),
// at the caller's position, captured with SourceLocation.
#pragma once

#include <stdexcept>
#include <string>

#include "dsl/source_location.hpp"

namespace ccforge::dsl {

class DslError : public std::runtime_error {
 public:
  DslError(const std::string& call, SourceLocation where, const std::string& message);

  const std::string& call() const { return call_; }
  const SourceLocation& where() const { return where_; }
  const std::string& message() const { return message_; }

 private:
  std::string call_;
  SourceLocation where_;
  std::string message_;
};

// "file.cpp:42:7" for messages that point back into a program.
std::string describeLocation(const SourceLocation& where);

}  // namespace ccforge::dsl
