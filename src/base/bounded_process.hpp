// Running another program (Graphviz's dot, rsvg-convert) with a limit: no shell, its standard
// input fed from a string, killed when the limit passes. Whole-or-nothing outputs are the
// caller's: it lets the program write a temporary file (base/output_file.hpp's replaceOutputFile).
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

namespace ccforge::base {

struct ProcessOutcome {
  enum class Kind { Exited, Signalled, TimedOut, NotStarted };
  Kind kind = Kind::NotStarted;
  int code = 0;                // Exited: the exit status; Signalled: the signal; NotStarted: the errno
  bool inputDelivered = true;  // false when the program stopped reading its input early

  bool succeeded() const { return kind == Kind::Exited && code == 0 && inputDelivered; }
};

// Runs argv[0] (looked up on PATH) with `argv`, feeds it `input` and waits at most `limit`.
ProcessOutcome runBounded(const std::vector<std::string>& argv, std::string_view input,
                          std::chrono::milliseconds limit);

}  // namespace ccforge::base
