// SMT schedules lowered by ccforge simulate at least as fast as SCCL's own lowering (`msccl
// ncclize`, tests/fixtures/sccl-ncclize) of the same (C,S,R) on the DGX-1 frontiers, at 1 GiB.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "ir/reader.hpp"
#include "sccl_test_support.hpp"
#include "sim/simulate.hpp"
#include "synth/sccl/emit.hpp"
#include "synth/sccl/synthesizer.hpp"
#include "topology/spec_reader.hpp"

namespace {

using namespace ccforge;

constexpr uint64_t kGiB = uint64_t{1} << 30;

double secondsAt1GiB(const ir::Algorithm& algorithm, const topo::Topology& dgx1) {
  sim::SimulationOptions options;
  options.sizes = {kGiB};
  return sim::simulate(algorithm, "t.xml", dgx1, options).results.at(0).timeUs;
}

void checkAtLeastAsFast(semantics::CollectiveType collective, int32_t chunks, int32_t steps, int32_t rounds,
                        const std::string& ncclizeFile) {
  const topo::Topology dgx1 = topo::loadTopology("dgx1");
  synth::sccl::Synthesizer synthesizer(dgx1, collective, 0, testing::quiet());
  const synth::sccl::InstanceResult result = synthesizer.solve(chunks, steps, rounds);
  REQUIRE(result.schedule);
  const synth::sccl::Emitted emitted =
      synth::sccl::emitVerified(synthesizer.problem(chunks), *result.schedule, "t", ir::Protocol::Simple, "t.xml");
  REQUIRE(emitted.verified());
  const ir::Algorithm ncclize =
      ir::readAlgorithmFile(std::filesystem::path(CCFORGE_FIXTURES) / "sccl-ncclize" / ncclizeFile).algorithm;
  const double ours = secondsAt1GiB(emitted.algorithm, dgx1), theirs = secondsAt1GiB(ncclize, dgx1);
  INFO("ccforge " << ours << " us, ncclize " << theirs << " us");
  CHECK(ours <= theirs);
}

}  // namespace

TEST_CASE("DGX-1 allgather frontier: ccforge's lowering is at least as fast as ncclize's at 1 GiB") {
  checkAtLeastAsFast(semantics::CollectiveType::AllGather, 2, 2, 3, "allgather_c2_s2_r3.xml");
  checkAtLeastAsFast(semantics::CollectiveType::AllGather, 6, 3, 7, "allgather_c6_s3_r7.xml");
}

TEST_CASE("DGX-1 reducescatter frontier: ccforge's lowering is at least as fast as ncclize's at 1 GiB") {
  checkAtLeastAsFast(semantics::CollectiveType::ReduceScatter, 2, 2, 3, "reducescatter_c2_s2_r3.xml");
  checkAtLeastAsFast(semantics::CollectiveType::ReduceScatter, 6, 3, 7, "reducescatter_c6_s3_r7.xml");
}

TEST_CASE("DGX-1 alltoall frontier and substitute: ccforge's lowering is at least as fast as ncclize's at 1 GiB") {
  checkAtLeastAsFast(semantics::CollectiveType::AllToAll, 24, 2, 8, "alltoall_c3_s2_r8.xml");
  checkAtLeastAsFast(semantics::CollectiveType::AllToAll, 8, 2, 3, "alltoall_c1_s2_r3.xml");
}
