// The same algorithms compiled by msccl-tools (tests/fixtures/msccl-tools) and by ccforge
// implement the same collective; where msccl-tools exceeds a runtime limit, ccforge does not.
#include <catch2/catch.hpp>

#include <filesystem>

#include "compile_support.hpp"
#include "ir/reader.hpp"
#include "verify/verifier.hpp"

using namespace ccforge;

namespace {

struct Pair {
  std::string file;
  std::string algorithm;
  std::vector<std::string> settings;
  ir::Protocol protocol;
};

verify::FileReport verifyTheirs(const ir::Algorithm& theirs, const std::string& file) {
  verify::Options options;
  options.profile = semantics::legacyProfile();  // msccl-tools writes the legacy header
  return verify::verifyAlgorithm(theirs, file, options);
}

ir::Algorithm read(const std::string& relative) {
  return ir::readAlgorithmFile(std::filesystem::path(CCFORGE_FIXTURES) / "msccl-tools" / relative).algorithm;
}

}  // namespace

TEST_CASE("msccl-tools and ccforge agree on the collective each algorithm implements") {
  const std::vector<Pair> pairs{
      {"valid/allreduce_ring_a100_n4_ch1_i1_LL128.xml", "ring-allreduce", {"ranks=4"}, ir::Protocol::LL128},
      {"valid/azure_allreduce_ring_a100_n8_ch4_i1_LL128.xml",
       "ring-allreduce",
       {"ranks=8", "channels=4"},
       ir::Protocol::LL128},
      {"valid/allreduce_hierarchical_2nodes_x3gpus_i1_auto.xml",
       "hierarchical-allreduce",
       {"nodes=2", "gpus=3", "instances=1"},
       ir::Protocol::Simple},
      {"valid/alltoall_two_step_2nodes_x4gpus.xml", "two-step-alltoall", {"nodes=2", "gpus=4"}, ir::Protocol::Simple},
      {"valid/allgather_ring_simple_oop_n4.xml", "ring-allgather", {"ranks=4", "inplace=0"}, ir::Protocol::Simple},
  };
  for (const Pair& p : pairs) {
    INFO(p.file);
    const ir::Algorithm theirs = read(p.file);
    const verify::FileReport theirReport = verifyTheirs(theirs, p.file);
    INFO(testing::describeViolations(theirReport));
    REQUIRE(theirReport.verdict == verify::Verdict::Verified);

    for (const std::string profile : {"msccl-legacy", "msccl-executor"}) {
      const codegen::Compiled ours = testing::compileVerified(p.algorithm, p.settings, p.protocol, profile);
      CHECK(ours.algorithm.coll == theirs.coll);
      CHECK(ours.algorithm.ngpus == theirs.ngpus);
      CHECK(ours.algorithm.nchunksperloop == theirs.nchunksperloop);
      CHECK(ours.algorithm.servesInPlace() == theirs.servesInPlace());
      CHECK(ours.algorithm.proto == theirs.proto);
    }
  }
}

TEST_CASE("8 ranks x 8 channels x 5 instances: msccl-tools emits 40 channels, ccforge stays within 32") {
  const std::string file = "invalid/allreduce_ring_a100_n8_ch8_i5_nchannels40.xml";
  const ir::Algorithm theirs = read(file);
  CHECK(theirs.nchannels == 40);
  const verify::FileReport theirReport = verifyTheirs(theirs, file);
  CHECK(theirReport.verdict == verify::Verdict::Violation);
  bool channelLimit = false;
  for (const verify::Violation& v : theirReport.violations) channelLimit = channelLimit || v.rule == "limits.channels";
  CHECK(channelLimit);

  const codegen::Compiled ours = testing::compileVerified("ring-allreduce", {"ranks=8", "channels=8", "instances=5"},
                                                          ir::Protocol::LL128, "msccl-legacy");
  CHECK(ours.algorithm.nchannels == 32);
  CHECK(ours.algorithm.nchunksperloop == theirs.nchunksperloop);
  CHECK(ours.algorithm.coll == theirs.coll);
  REQUIRE(ours.notes.size() == 1);
  CHECK_THAT(ours.notes[0], Catch::Contains("5 replicas x 8 channels exceed the runtime's 32 channels"));
}
