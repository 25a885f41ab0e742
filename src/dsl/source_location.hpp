// Where a DSL call was made: file, line and column of the caller, captured by a default
// argument (`SourceLocation where = SourceLocation::current()`) like std::source_location.
// ccforge's own type rather than std::source_location so that the installed headers compile with
// every compiler the project supports and link against one library: GCC 12 and clang 15 have
// std::source_location, Debian's clang 14 (libstdc++ 12) does not (its <source_location> needs
// __builtin_source_location), and there the compiler builtins fill the same fields. The layout
// does not depend on the compiler, so a program built with clang 14 links a library built with GCC.
#pragma once

#include <cstdint>

#if __has_include(<source_location>)
#include <source_location>
#endif

namespace ccforge::dsl {

class SourceLocation {
 public:
  constexpr SourceLocation() = default;

#if defined(__cpp_lib_source_location) && __cpp_lib_source_location >= 201907L
  static constexpr SourceLocation current(std::source_location s = std::source_location::current()) {
    return SourceLocation(s.file_name(), s.function_name(), s.line(), s.column());
  }
#else
  static constexpr SourceLocation current(const char* file = __builtin_FILE(), const char* function = __builtin_FUNCTION(),
                                          uint_least32_t line = __builtin_LINE(), uint_least32_t column = __builtin_COLUMN()) {
    return SourceLocation(file, function, line, column);
  }
#endif

  constexpr const char* file_name() const { return file_; }
  constexpr const char* function_name() const { return function_; }
  constexpr uint_least32_t line() const { return line_; }
  constexpr uint_least32_t column() const { return column_; }  // 0 where the compiler gives none

 private:
  constexpr SourceLocation(const char* file, const char* function, uint_least32_t line, uint_least32_t column)
      : file_(file), function_(function), line_(line), column_(column) {}

  const char* file_ = "";
  const char* function_ = "";
  uint_least32_t line_ = 0;
  uint_least32_t column_ = 0;
};

}  // namespace ccforge::dsl
