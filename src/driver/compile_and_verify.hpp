// Compile-then-verify, the pipeline of every producer of MSCCL-IR (`ccforge compile`, SMT and
// tree synthesis, the tests): a DSL program compiled for a runtime, and the result checked by the
// verifier against the same runtime, so that what a producer emits is what `ccforge verify`
// accepts for that runtime.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "codegen/compiler.hpp"
#include "dsl/program.hpp"
#include "ir/model.hpp"
#include "semantics/runtime_profile.hpp"
#include "verify/report.hpp"

namespace ccforge::driver {

// The runtime a program is compiled and verified for.
struct Target {
  semantics::RuntimeProfile profile = semantics::executorProfile();
  // Thread blocks per rank that can be resident at once (--max-tbs); nullopt: the profile's.
  std::optional<int32_t> maxCoResidentThreadBlocks;
};

// Throws codegen::CompileError (the trace breaks the postcondition, or no schedule fits).
codegen::Compiled compileFor(const dsl::Program& program, const Target& target);

// Verifies an algorithm compiled for `target`. `collective` is the postcondition to check, as
// `verify --collective` takes it (dsl::CollectiveBinding::verifyName(): the file's coll
// attribute alone names neither the root of a rooted collective nor alltonext); nullopt: the one
// coll names. Findings are located in `source`.
// `custom`: a custom collective's spec (dsl::CollectiveBinding::refinedCustom), which no name gives.
verify::FileReport verifyCompiled(const ir::Algorithm& algorithm, const std::optional<std::string>& collective,
                                  const Target& target, const std::string& source,
                                  const std::optional<semantics::CustomCollectiveSpec>& custom = std::nullopt);

struct CompiledAndVerified {
  codegen::Compiled compiled;
  verify::FileReport report;
  bool verified() const { return report.verdict == verify::Verdict::Verified; }
};

// compileFor, then verifyCompiled for the program's collective. Throws codegen::CompileError.
CompiledAndVerified compileAndVerify(const dsl::Program& program, const Target& target, const std::string& source);

}  // namespace ccforge::driver
