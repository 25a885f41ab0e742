// A request the command cannot carry out as given (a bad option combination, a value out of
// range): the commands that throw it report its message and exit 1.
#pragma once

#include <stdexcept>

namespace ccforge::cli {

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace ccforge::cli
