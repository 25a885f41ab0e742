#include "dsl/dsl_error.hpp"

#include "base/diagnostic.hpp"

namespace ccforge::dsl {

std::string describeLocation(const SourcePos& where) {
  std::string out = std::string(where.file_name()) + ":" + std::to_string(where.line());
  if (where.column() > 0) out += ":" + std::to_string(where.column());
  return out;
}

DslError::DslError(const std::string& call, SourcePos where, const std::string& message)
    : std::runtime_error(base::formatDiagnostic(where.file_name(), base::TextLocation{where.line(), where.column()},
                                                base::DiagnosticLevel::Error, call + ": " + message)),
      call_(call),
      where_(where),
      message_(message) {}

}  // namespace ccforge::dsl
