// Where a DSL call was made: file, line and column of the caller. C++ programs get it from the
// default arguments of the DSL's calls (`SourcePos where = SourcePos::current()`, which names the
// caller as std::source_location::current() does); the Python front end passes the line of the
// user's script. `file` must outlive the program (a string literal, or a string the caller keeps,
// e.g. interned).
//
// current() uses std::source_location where the standard library provides it (GCC 12, clang 15)
// and the compiler builtins otherwise: Debian's clang 14 with libstdc++ 12 has no
// std::source_location (its <source_location> needs __builtin_source_location). The layout does
// not depend on the compiler, so a program built with clang 14 links a library built with GCC.
#pragma once

#include <cstdint>
#include <string>

#if __has_include(<source_location>)
#include <source_location>
#endif

namespace ccforge::dsl {

// The accessors are std::source_location's, so code written against it reads a SourcePos unchanged.
class SourcePos {
 public:
  constexpr SourcePos() = default;
  constexpr SourcePos(const char* fileName, uint32_t lineNumber, uint32_t columnNumber = 0)
      : file_(fileName), line_(lineNumber), column_(columnNumber) {}

#if defined(__cpp_lib_source_location) && __cpp_lib_source_location >= 201907L
  // Implicit, so that `SourcePos where = std::source_location::current()` names the caller.
  constexpr SourcePos(const std::source_location& l)  // NOLINT(google-explicit-constructor)
      : file_(l.file_name()), line_(l.line()), column_(l.column()) {}
  static constexpr SourcePos current(std::source_location l = std::source_location::current()) { return SourcePos(l); }
#else
  static constexpr SourcePos current(const char* fileName = __builtin_FILE(), uint32_t lineNumber = __builtin_LINE(),
                                     uint32_t columnNumber = __builtin_COLUMN()) {
    return SourcePos(fileName, lineNumber, columnNumber);
  }
#endif

  constexpr const char* file_name() const { return file_; }
  constexpr uint32_t line() const { return line_; }
  constexpr uint32_t column() const { return column_; }  // 0: unknown

 private:
  const char* file_ = "";
  uint32_t line_ = 0;
  uint32_t column_ = 0;
};

}  // namespace ccforge::dsl
