// The driver's compile-then-verify: one target (profile and co-residency bound) reaches both the
// compiler and the verifier, and the program's own collective (with its root) is the
// postcondition checked.
#include <catch2/catch.hpp>

#include <algorithm>

#include "codegen/compile_error.hpp"
#include "driver/compile_and_verify.hpp"
#include "library.hpp"
#include "support/verify_support.hpp"

using namespace ccforge;

namespace {}  // namespace

TEST_CASE("driver: a library algorithm compiles and verifies for the profile it is compiled for") {
  const algorithms::Instance ring = algorithms::instantiate("ring-allreduce", {"ranks=4"}, std::nullopt);
  const driver::CompiledAndVerified executor = driver::compileAndVerify(ring.program, {}, "ring.xml");
  CHECK(executor.verified());
  CHECK(executor.report.file == "ring.xml");
  CHECK(executor.report.profile == "msccl-executor");
  CHECK(executor.compiled.algorithm.headerStyle() == ir::HeaderStyle::Executor);
  const driver::CompiledAndVerified legacy =
      driver::compileAndVerify(ring.program, {semantics::legacyProfile(), std::nullopt}, "ring.xml");
  CHECK(legacy.verified());
  CHECK(legacy.report.profile == "msccl-legacy");
  CHECK(legacy.compiled.algorithm.headerStyle() == ir::HeaderStyle::Legacy);
}

TEST_CASE("driver: the co-residency override bounds the compiler and the verifier alike") {
  // All-pairs alltoall on 8 ranks: one thread block per peer, 7 per rank.
  const algorithms::Instance a2a = algorithms::instantiate("allpairs-alltoall", {"ranks=8"}, std::nullopt);
  CHECK_THROWS_AS(driver::compileFor(a2a.program, {semantics::executorProfile(), 6}), codegen::CompileError);
  const driver::CompiledAndVerified seven =
      driver::compileAndVerify(a2a.program, {semantics::executorProfile(), 7}, "a2a.xml");
  CHECK(seven.verified());
  CHECK(seven.compiled.stats.threadBlocks == 8 * 7);
  const verify::FileReport six =
      driver::verifyCompiled(seven.compiled.algorithm, std::nullopt, {semantics::executorProfile(), 6}, "a2a.xml");
  CHECK(six.verdict == verify::Verdict::Violation);
  CHECK(test::hasRule(six, "limits.co-residency"));
}

TEST_CASE("driver: the postcondition checked is the program's collective, with its root") {
  const algorithms::Instance bcast = algorithms::instantiate("binomial-broadcast", {"ranks=4", "root=2"}, std::nullopt);
  const driver::CompiledAndVerified result = driver::compileAndVerify(bcast.program, {}, "bcast.xml");
  CHECK(result.verified());
  // The file's coll attribute does not carry the root: checked for root 0, the program is wrong.
  const verify::FileReport root0 = driver::verifyCompiled(result.compiled.algorithm, std::nullopt, {}, "bcast.xml");
  CHECK(root0.verdict == verify::Verdict::Violation);
  CHECK(test::hasRule(root0, "postcondition.wrong-chunk"));
}
