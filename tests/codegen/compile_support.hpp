// Test support: compiling library algorithms and verifying the result with ccforge_verify.
#pragma once

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "codegen/compiler.hpp"
#include "library.hpp"
#include "verify/verifier.hpp"

namespace ccforge::testing {

inline RuntimeProfile target(const std::string& name) { return *profileByName(name); }

inline verify::FileReport verifyCompiled(const ir::Algorithm& algo, const dsl::Program& program,
                                         const std::string& profile) {
  verify::Options options;
  options.profile = *profileByName(profile);
  options.collective = program.binding().verifyName();
  return verify::verifyAlgorithm(algo, program.name() + ".xml", options);
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
  codegen::Compiled compiled = codegen::compile(inst.program, {target(profile)});
  const verify::FileReport report = verifyCompiled(compiled.algorithm, inst.program, profile);
  INFO(describeViolations(report));
  CHECK(report.verdict == verify::Verdict::Verified);
  CHECK(report.errorCount() == 0);
  CHECK(report.warningCount() == 0);
  return compiled;
}

}  // namespace ccforge::testing
