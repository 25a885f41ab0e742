// Where a DSL call was made: file, line and column of the caller. C++ programs get it from
// std::source_location (the default arguments of the DSL's calls); the Python front end
// passes the line of the user's script. `file` must outlive the program (a string literal, or
// a string the caller keeps, e.g. interned).
#pragma once

#include <cstdint>
#include <source_location>
#include <string>

namespace ccforge::dsl {

// The accessors are std::source_location's, so code written against it reads a SourcePos unchanged.
class SourcePos {
 public:
  SourcePos() = default;
  SourcePos(const char* fileName, uint32_t lineNumber, uint32_t columnNumber = 0)
      : file_(fileName), line_(lineNumber), column_(columnNumber) {}
  // Implicit, so that `SourcePos where = std::source_location::current()` names the caller.
  SourcePos(const std::source_location& l)  // NOLINT(google-explicit-constructor)
      : file_(l.file_name()), line_(l.line()), column_(l.column()) {}

  const char* file_name() const { return file_; }
  uint32_t line() const { return line_; }
  uint32_t column() const { return column_; }  // 0: unknown

 private:
  const char* file_ = "";
  uint32_t line_ = 0;
  uint32_t column_ = 0;
};

}  // namespace ccforge::dsl
