#include "dsl/dsl_error.hpp"

namespace ccforge::dsl {

std::string describeLocation(const SourcePos& where) {
  return std::string(where.file_name()) + ":" + std::to_string(where.line());
}

DslError::DslError(const std::string& call, SourcePos where, const std::string& message)
    : std::runtime_error(describeLocation(where) + ": " + call + ": " + message),
      call_(call),
      where_(where),
      message_(message) {}

}  // namespace ccforge::dsl
