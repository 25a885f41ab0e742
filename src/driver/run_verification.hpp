// The load-time policy of `ccforge run` (docs/runtime.md, "Loading and verification"): a file
// runs only when `ccforge verify` accepts it. It is checked exactly as `verify` checks it: the
// same profile (--profile, or the one its header is written for), the runtime parser's findings,
// every limit and every semantic check. What verify rejects is refused; what verify cannot
// decide runs, because the run checks every output element against the reference anyway.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "ir/reader.hpp"
#include "semantics/runtime_profile.hpp"
#include "verify/report.hpp"

namespace ccforge::driver {

struct RunVerificationOptions {
  // --profile; nullopt: the one the file's header is written for.
  std::optional<semantics::RuntimeProfile> profile = std::nullopt;
  std::optional<int32_t> slots = std::nullopt;                      // --slots, as for verify
  std::optional<int32_t> maxCoResidentThreadBlocks = std::nullopt;  // --max-tbs, as for verify
  int32_t root = 0;  // --root: the root a rooted collective is checked for
};

enum class LoadDecision : uint8_t {
  Run,          // verified
  RunUnproven,  // inconclusive: some check could not decide; the comparison with the reference still runs
  Refuse,       // verify rejects it (violation, malformed, internal error); --no-verify runs it anyway
};

struct RunVerification {
  verify::FileReport report;
  LoadDecision decision = LoadDecision::Refuse;
};

// `read` is the file as ir::readAlgorithmFile read it (with the runtime parser's findings).
RunVerification verifyForRun(const ir::ReadResult& read, const std::string& source,
                             const RunVerificationOptions& options);

}  // namespace ccforge::driver
