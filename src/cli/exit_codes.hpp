// Exit codes of every checking command (docs/exit-codes.md), following CBMC's convention.
#pragma once

namespace ccforge::cli {

enum ExitCode : int {
  kExitVerified = 0,
  kExitUsage = 1,
  kExitMalformedInput = 2,
  kExitInconclusive = 5,
  kExitInternalError = 6,  // also: two engines disagree
  kExitViolation = 10,
};

}  // namespace ccforge::cli
