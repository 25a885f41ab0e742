// The real msccl-tools outputs get the verdicts their README states
// (tests/fixtures/msccl-tools/README.md).
#include <catch2/catch.hpp>

#include <filesystem>

#include "verify/verifier.hpp"
#include "support/verify_support.hpp"

using namespace ccforge;
using verify::Verdict;

namespace {

std::string sample(const std::string& name) { return std::string(CCFORGE_FIXTURES) + "/msccl-tools/" + name; }

std::vector<std::string> rules(const verify::FileReport& r) {
  std::vector<std::string> out;
  for (const auto& v : r.violations)
    if (v.severity == verify::Severity::Error) out.push_back(v.rule);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace

TEST_CASE("valid msccl-tools samples are correct under the runtime they were written for") {
  for (const char* name :
       {"valid/allreduce_ring_a100_n4_ch1_i1_LL128.xml", "valid/allreduce_hierarchical_2nodes_x3gpus_i1_auto.xml",
        "valid/alltoall_two_step_2nodes_x4gpus.xml", "valid/allgather_ring_simple_oop_n4.xml",
        "valid/azure_allreduce_ring_a100_n8_ch4_i1_LL128.xml", "valid/sccl_allgather_dgx1_pareto_s2_r3_c2.xml"}) {
    INFO(name);
    auto r = verify::verifyFile(sample(name), test::legacyOptions());
    CHECK(r.verdict == Verdict::Verified);
    CHECK(rules(r).empty());
  }
}

TEST_CASE("only the newer-header sample is accepted as is by the current executor") {
  auto azure = verify::verifyFile(sample("valid/azure_allreduce_ring_a100_n8_ch4_i1_LL128.xml"), verify::Options{});
  CHECK(azure.verdict == Verdict::Verified);
  for (const char* name : {"valid/allreduce_ring_a100_n4_ch1_i1_LL128.xml", "valid/alltoall_two_step_2nodes_x4gpus.xml",
                           "valid/sccl_allgather_dgx1_pareto_s2_r3_c2.xml"}) {
    INFO(name);
    auto r = verify::verifyFile(sample(name), verify::Options{});
    CHECK(r.verdict == Verdict::Violation);
    CHECK(rules(r) == std::vector<std::string>{"format.executor-header"});
  }
}

TEST_CASE("the LL128 ring is deadlock-free with the runtime's slots but deadlocks with one") {
  auto r = verify::verifyFile(sample("valid/allreduce_ring_a100_n4_ch1_i1_LL128.xml"), test::legacyOptions());
  REQUIRE(r.deadlock.has_value());
  CHECK(r.deadlock->slotsChecked == 8);
  CHECK(r.deadlock->minimumSlots == 2);
  verify::Options one = test::legacyOptions();
  one.slots = 1;
  auto d = verify::verifyFile(sample("valid/allreduce_ring_a100_n4_ch1_i1_LL128.xml"), one);
  CHECK(d.verdict == Verdict::Violation);
  CHECK(rules(d) == std::vector<std::string>{"deadlock.cycle"});
}

TEST_CASE("the rrc probe computes a wrong result under runtime semantics") {
  auto r = verify::verifyFile(sample("invalid/rrc_srcoff_probe_allreduce_n2.xml"), test::legacyOptions());
  CHECK(r.verdict == Verdict::Violation);
  auto found = rules(r);
  CHECK(std::count(found.begin(), found.end(), "postcondition.wrong-chunk") == 1);
  bool explained = false;
  for (const auto& v : r.violations)
    for (const auto& e : v.evidence)
      explained = explained || e.find("reduces with s[0] of rank 0, which nothing wrote") != std::string::npos;
  CHECK(explained);
}

TEST_CASE("the 40-channel ring is semantically correct but breaks MAXCHANNELS") {
  auto r = verify::verifyFile(sample("invalid/allreduce_ring_a100_n8_ch8_i5_nchannels40.xml"), test::legacyOptions());
  CHECK(r.verdict == Verdict::Violation);
  CHECK(rules(r) == std::vector<std::string>{"limits.channels"});
  for (const auto& c : r.checks)
    if (c.check == verify::Check::Postcondition || c.check == verify::Check::Races ||
        c.check == verify::Check::Deadlock)
      CHECK(c.status == verify::CheckStatus::Passed);
}
