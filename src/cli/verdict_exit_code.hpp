// The exit code a verification verdict maps to (docs/exit-codes.md).
#pragma once

#include "cli/exit_codes.hpp"
#include "verify/report.hpp"

namespace ccforge::cli {

inline int exitCodeOf(verify::Verdict v) {
  switch (v) {
    case verify::Verdict::Verified:
    case verify::Verdict::Accepted: return kExitVerified;
    case verify::Verdict::Violation: return kExitViolation;
    case verify::Verdict::Inconclusive: return kExitInconclusive;
    case verify::Verdict::Malformed: return kExitMalformedInput;
    case verify::Verdict::InternalError: return kExitInternalError;
  }
  return kExitInternalError;
}

}  // namespace ccforge::cli
