// Loading programs: read an MSCCL-IR file, check what execution needs (ExecutableProgram::compile), and,
// when the caller passes a Verifier, verify it. The runtime library does not depend on the
// verifier; nullptr skips verification. `ccforge run` verifies files before it loads them, as
// `ccforge verify` does (src/driver/run_verification.hpp), and passes none: the hook serves
// programs that embed the runtime with a verifier of their own.
#pragma once

#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>

#include "runtime/program.hpp"
#include "ir/model.hpp"

namespace ccforge::runtime {

struct VerificationOutcome {
  bool passed = false;
  std::string report;  // failed: the findings, one per line; passed: what was checked
};
using Verifier = std::function<VerificationOutcome(const ir::Algorithm& algorithm, const std::string& source)>;

struct LoadOptions {
  const Verifier* verifier = nullptr;  // nullptr: no semantic verification
};

// The verifier found a violation; what() starts with the source and holds the report.
class VerificationFailed : public std::runtime_error {
 public:
  VerificationFailed(const std::string& source, const std::string& report)
      : std::runtime_error(source + ": verification at load failed (use --no-verify to run anyway):\n" + report) {}
};

// Throws InputError (unreadable, malformed), ProgramRejected, VerificationFailed. `verification`,
// when given, receives the verifier's report of a program that passed.
ExecutableProgram loadExecutable(const std::filesystem::path& path, const LoadOptions& options,
                                 std::string* verification = nullptr);
ExecutableProgram loadExecutable(ir::Algorithm algorithm, std::string source, const LoadOptions& options,
                                 std::string* verification = nullptr);

}  // namespace ccforge::runtime
