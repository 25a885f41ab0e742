#include "base/diagnostic.hpp"

namespace ccforge::base {

std::string_view diagnosticLevelName(DiagnosticLevel level) {
  switch (level) {
    case DiagnosticLevel::Error: return "error";
    case DiagnosticLevel::Warning: return "warning";
    case DiagnosticLevel::Note: return "note";
  }
  return "error";
}

std::string formatDiagnostic(std::string_view file, TextLocation where, DiagnosticLevel level, std::string_view message,
                             std::string_view rule) {
  uint32_t line = where.known() ? where.line : 1;
  uint32_t column = where.known() && where.column > 0 ? where.column : 1;
  std::string out(file.empty() ? std::string_view("<input>") : file);
  out += ":" + std::to_string(line) + ":" + std::to_string(column) + ": ";
  out += diagnosticLevelName(level);
  out += ": ";
  // One line per diagnostic: a multi-line message continues after "; ".
  for (size_t i = 0; i < message.size(); ++i) {
    char c = message[i];
    if (c == '\r') continue;
    if (c == '\n') {
      if (i + 1 < message.size()) out += "; ";
      continue;
    }
    out += c;
  }
  if (!rule.empty()) {
    out += " [";
    out += rule;
    out += "]";
  }
  return out;
}

}  // namespace ccforge::base
