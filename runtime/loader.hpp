// Loading programs: read an MSCCL-IR file, check what execution needs (Program::compile), and
// verify its semantics (races, postcondition, deadlock) through a Verifier. The runtime library
// does not depend on the verifier: the caller (the CLI) passes one; nullptr skips verification
// (`ccforge run --no-verify`). A verifier must not fail a file only because it lacks attributes a
// particular MSCCL executor requires (outofplace, minBytes, maxBytes): this runtime runs such files.
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
Program loadProgram(const std::filesystem::path& path, const LoadOptions& options, std::string* verification = nullptr);
Program loadProgram(ir::Algorithm algorithm, std::string source, const LoadOptions& options,
                    std::string* verification = nullptr);

}  // namespace ccforge::runtime
