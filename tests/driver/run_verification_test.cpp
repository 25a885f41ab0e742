// The load-time policy of `ccforge run`: a file runs when `ccforge verify` accepts it, is refused
// when verify rejects it (limits and the runtime parser's findings included), and runs with a
// note when verify cannot decide. Without a profile, the file's header chooses one.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

#include "driver/run_verification.hpp"
#include "ir/reader.hpp"
#include "support/verify_support.hpp"

using namespace ccforge;
using driver::LoadDecision;

namespace {

std::string fixture(const std::string& relative) {
  return (std::filesystem::path(CCFORGE_FIXTURES) / relative).string();
}

driver::RunVerification check(const std::string& relative, const driver::RunVerificationOptions& options = {}) {
  const std::string path = fixture(relative);
  return driver::verifyForRun(ir::readAlgorithmFile(path), path, options);
}

}  // namespace

TEST_CASE("run policy: a legacy file is checked against msccl-legacy, as its header says, and runs") {
  const driver::RunVerification v = check("msccl-tools/valid/allreduce_ring_a100_n4_ch1_i1_LL128.xml");
  CHECK(v.decision == LoadDecision::Run);
  CHECK(v.report.verdict == verify::Verdict::Verified);
  CHECK(v.report.profile == "msccl-legacy");
  REQUIRE_FALSE(v.report.notes.empty());
  CHECK_THAT(v.report.notes.front(), Catch::Contains("profile msccl-legacy from the header"));
}

TEST_CASE("run policy: an explicit profile overrides the header") {
  const driver::RunVerification v =
      check("msccl-tools/valid/allreduce_ring_a100_n4_ch1_i1_LL128.xml", {.profile = semantics::executorProfile()});
  CHECK(v.decision == LoadDecision::Refuse);
  CHECK(v.report.profile == "msccl-executor");
  CHECK(test::hasRule(v.report, "format.executor-header"));
}

TEST_CASE("run policy: a file verify rejects only for a runtime limit is refused") {
  const driver::RunVerification v = check("msccl-tools/invalid/allreduce_ring_a100_n8_ch8_i5_nchannels40.xml");
  CHECK(v.decision == LoadDecision::Refuse);
  CHECK(v.report.verdict == verify::Verdict::Violation);
  CHECK(test::hasRule(v.report, "limits.channels"));
}

TEST_CASE("run policy: what the runtime's own parser refuses is refused") {
  const driver::RunVerification v = check("verify/format/xml_declaration.xml");
  CHECK(v.decision == LoadDecision::Refuse);
  CHECK(test::hasRule(v.report, "format.runtime-parser"));
}

TEST_CASE("run policy: a file verify cannot decide runs unproven") {
  // A custom collective without a postcondition: the postcondition check is skipped.
  const driver::RunVerification v = check("verify/custom/alltonext_without_collective.xml");
  CHECK(v.report.profile == "msccl-legacy");
  CHECK(v.report.verdict == verify::Verdict::Inconclusive);
  CHECK(v.decision == LoadDecision::RunUnproven);
}

TEST_CASE("run policy: a rooted collective is checked for the call's root") {
  // The file broadcasts rank 0's chunk.
  CHECK(check("verify/good/ordered_through_other_rank.xml", {.root = 0}).decision == LoadDecision::Run);
  const driver::RunVerification v = check("verify/good/ordered_through_other_rank.xml", {.root = 1});
  CHECK(v.decision == LoadDecision::Refuse);
  CHECK(test::hasRule(v.report, "postcondition.wrong-chunk"));
}

TEST_CASE("run policy: --slots reaches the deadlock check") {
  const driver::RunVerification v = check("msccl-tools/valid/allreduce_ring_a100_n4_ch1_i1_LL128.xml", {.slots = 1});
  CHECK(v.decision == LoadDecision::Refuse);
  CHECK(test::hasRule(v.report, "deadlock.cycle"));
}
