// Misuse of the DSL: a stale reference, an uninitialised read, an index out of range, ...
// The message names the offending call (operation and arguments) and where the program made
// it: what() is the diagnostic line FILE:LINE:COLUMN: error: CALL: MESSAGE (base/diagnostic.hpp),
// at the caller's position (SourcePos; the column is 1 when unknown).
#pragma once

#include <stdexcept>
#include <string>

#include "dsl/source_pos.hpp"

namespace ccforge::dsl {

class DslError : public std::runtime_error {
 public:
  DslError(const std::string& call, SourcePos where, const std::string& message);

  const std::string& call() const { return call_; }
  const SourcePos& where() const { return where_; }
  const std::string& message() const { return message_; }

 private:
  std::string call_;
  SourcePos where_;
  std::string message_;
};

// "file.cpp:42:7" (the column when known) for messages that point back into a program.
std::string describeLocation(const SourcePos& where);

}  // namespace ccforge::dsl
