// An input file ccforge cannot use: unreadable, malformed, or over a safety limit.
// Always carries where (file and, when known, line:column) so the user can find it. what() is
// "FILE:LINE:COLUMN: MESSAGE" for wrapping in other messages; diagnostic() is what is printed.
#pragma once

#include <stdexcept>
#include <string>

#include "base/diagnostic.hpp"

namespace ccforge::base {

class InputError : public std::runtime_error {
 public:
  InputError(std::string file, TextLocation where, const std::string& message)
      : std::runtime_error(format(file, where, message)), file_(std::move(file)), where_(where), message_(message) {}

  const std::string& file() const { return file_; }
  TextLocation where() const { return where_; }
  const std::string& message() const { return message_; }
  // The line ccforge prints for it: FILE:LINE:COLUMN: error: MESSAGE (base/diagnostic.hpp).
  std::string diagnostic() const { return formatDiagnostic(file_, where_, DiagnosticLevel::Error, message_); }

 private:
  static std::string format(const std::string& file, TextLocation where, const std::string& message) {
    if (!where.known()) return file + ": " + message;
    return file + ":" + std::to_string(where.line) + ":" + std::to_string(where.column) + ": " + message;
  }
  std::string file_;
  TextLocation where_;
  std::string message_;
};

}  // namespace ccforge::base
