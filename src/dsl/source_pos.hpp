// Where a DSL call was made: file, line and column of the caller. C++ programs get it from
// std::source_location (the default arguments of the DSL's calls); the Python front end
// passes the line of the user's script. `file` must outlive the program (a string literal, or
// a string the caller keeps, e.g. interned).
#pragma once

#include <cstdint>
#include <source_location>
#include <string>

namespace ccforge::dsl {

struct SourcePos {
  const char* file = "";
  uint32_t line = 0;
  uint32_t column = 0;  // 0: unknown

  SourcePos() = default;
  SourcePos(const char* fileName, uint32_t lineNumber, uint32_t columnNumber = 0)
      : file(fileName), line(lineNumber), column(columnNumber) {}
  // Implicit, so that `SourcePos where = std::source_location::current()` names the caller.
  SourcePos(const std::source_location& l)  // NOLINT(google-explicit-constructor)
      : file(l.file_name()), line(l.line()), column(l.column()) {}

  const char* file_name() const { return file; }
};

}  // namespace ccforge::dsl
