// Test support: compiling library algorithms and verifying the result through the driver's
// compile-then-verify, as `ccforge compile` does.
#pragma once

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "driver/compile_and_verify.hpp"
#include "library.hpp"

namespace ccforge::testing {

inline semantics::RuntimeProfile target(const std::string& name) { return *semantics::profileByName(name); }

inline verify::FileReport verifyCompiled(const ir::Algorithm& algo, const dsl::Program& program,
                                         const std::string& profile) {
  return driver::verifyCompiled(algo, program.binding().verifyName(), {target(profile), std::nullopt},
                                program.name() + ".xml");
}

// Every error the verifier reports, one per line, for failure messages.
inline std::string describeViolations(const verify::FileReport& r) {
  std::string out = r.error;
  for (const verify::Violation& v : r.violations) out += "\n" + v.rule + ": " + v.message;
  return out;
}

// Compiles NAME settings for `profile` and checks that the verifier finds nothing wrong.
inline codegen::Compiled compileVerified(const std::string& name, const std::vector<std::string>& settings,
                                         std::optional<ir::Protocol> protocol = std::nullopt,
                                         const std::string& profile = "msccl-executor") {
  algorithms::Instance inst = algorithms::instantiate(name, settings, protocol);
  driver::CompiledAndVerified result =
      driver::compileAndVerify(inst.program, {target(profile), std::nullopt}, inst.program.name() + ".xml");
  INFO(describeViolations(result.report));
  CHECK(result.report.verdict == verify::Verdict::Verified);
  CHECK(result.report.errorCount() == 0);
  CHECK(result.report.warningCount() == 0);
  return std::move(result.compiled);
}

}  // namespace ccforge::testing
