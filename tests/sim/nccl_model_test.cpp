// NCCL's model (sim/nccl_model.hpp, nccl_machine.hpp, nccl_environment.hpp). The expected channel
// counts follow NCCL's topology search by hand (search.cc, docs/simulate.md "NCCL's choice"), the
// expected times tuning.cc's formulas by hand with its constants.
#include <catch2/catch.hpp>

#include "sim/nccl_model.hpp"
#include "topology/spec_reader.hpp"

using namespace ccforge;
using namespace ccforge::sim;

namespace {
NcclSetup setupOf(const char* topology, std::vector<std::string> env = {}) {
  const topo::Topology t = topo::loadTopology(topology);
  return ncclSetup(t, modelParameters(t), parseNcclEnvironment(env));
}
const NcclChoice& optionOf(const std::vector<NcclChoice>& options, const std::string& algorithm, ir::Protocol p) {
  for (const NcclChoice& c : options)
    if (c.algorithm == algorithm && c.protocol == p) return c;
  FAIL("no option " << algorithm);
  return options.front();
}
constexpr uint64_t kGiB = uint64_t{1} << 30;
}  // namespace

TEST_CASE("nccl machine: the search's channels on the catalog's boxes") {
  // H100: 18 NVLinks x 20.6 = 370.8 GB/s; 6 rings of 60 duplicated to 12 of 30 (sm90 keeps
  // channels of 50 GB/s and more whole only below 5 channels); NVLS heads of 40 (9 x 40 <= 370.8).
  const NcclMachine h100 = setupOf("h100-1").machine;
  CHECK(h100.arch == Arch::Sm90);
  CHECK(h100.channels == 12);
  CHECK(h100.bwIntra == Approx(30));
  CHECK(h100.commChannels == 24);
  CHECK(h100.nvls);
  CHECK(h100.nvlsHeads == 8);
  CHECK(h100.nvlsBwIntra == Approx(40));
  CHECK(h100.nvlsBwInter == Approx(60));
  // A100: 12 x 20 = 240: 6 rings of 40, duplicated; no NVLS.
  const NcclMachine a100 = setupOf("a100-1").machine;
  CHECK(a100.channels == 12);
  CHECK(a100.bwIntra == Approx(20));
  CHECK_FALSE(a100.nvls);
  // DGX-1: 6 rings of 20 over the cube-mesh's 2 + 2 + 1 + 1 NVLinks; not duplicated (20 < 25).
  const NcclMachine dgx1 = setupOf("dgx1").machine;
  CHECK(dgx1.arch == Arch::Sm70);
  CHECK(dgx1.channels == 6);
  CHECK(dgx1.bwIntra == Approx(20));
  CHECK(dgx1.commChannels == 12);
  CHECK(dgx1.intraAlphaUs == Approx(0.7));
  // Two H100 boxes, a 400 Gb/s NIC per GPU: one channel of 48 per NIC; 16 CTAs; NVLSTree heads.
  const NcclMachine h2 = setupOf("h100-2").machine;
  CHECK(h2.nodes == 2);
  CHECK(h2.channels == 8);
  CHECK(h2.bwInter == Approx(48));
  CHECK(h2.commChannels == 16);
  CHECK(h2.nvlsBwInter == Approx(48));
  CHECK(h2.interAlphaUs == Approx(2.6));
  // Two A100 boxes, 200 Gb/s NICs: 8 channels of 24, not duplicated.
  const NcclMachine a2 = setupOf("a100-2").machine;
  CHECK(a2.channels == 8);
  CHECK(a2.bwInter == Approx(24));
  CHECK(a2.commChannels == 16);
}

TEST_CASE("nccl model: H100 allreduce picks NVLS at 1 GiB, the ring when told to") {
  const NcclSetup h100 = setupOf("h100-1");
  // NVLS: 40 x 0.85 x 7/8 x 2 = 59.5 per head (under bwInter 60), 8 heads: bus 476 GB/s, algbw
  // 476 x 8/14; latency 25 us (hwLatencies NVLink NVLS).
  const NcclChoice pick = ncclChoice(h100, {.collective = semantics::CollectiveType::AllReduce, .bytes = kGiB});
  CHECK(pick.algorithm == "nvls");
  CHECK(pick.ncclTimeUs == Approx(25 + kGiB / (1000 * 476.0 * 8 / 14)).epsilon(1e-9));
  // Default parameters are NCCL's own rates: the prediction is NCCL's estimate.
  CHECK(pick.timeUs == Approx(pick.ncclTimeUs).epsilon(1e-9));
  // NCCL_ALGO=Ring: 12 x 30 x 8/14 GB/s; 8.4 + 14 x 3.4 us. (Measured on an H100 box: 5218.6 us,
  // tests/fixtures/nccl-tests-logs/h100-1x8-allreduce-ring-nccl2.26.txt.)
  const NcclChoice ring = ncclChoice(setupOf("h100-1", {"NCCL_ALGO=Ring"}),
                                     {.collective = semantics::CollectiveType::AllReduce, .bytes = kGiB});
  CHECK(ring.algorithm == "ring");
  CHECK(ring.protocol == ir::Protocol::Simple);
  CHECK(ring.ncclTimeUs == Approx(56 + kGiB / (1000 * 360.0 * 8 / 14)).epsilon(1e-9));
  // NCCL_NVLS_ENABLE=0 leaves ring and tree.
  CHECK(ncclChoice(setupOf("h100-1", {"NCCL_NVLS_ENABLE=0"}),
                   {.collective = semantics::CollectiveType::AllReduce, .bytes = kGiB})
            .algorithm == "ring");
}

TEST_CASE("nccl model: NVLS's smaller chunks cost nvls_step_us per added step") {
  // One H100 box: 16 NVLS channels x 8 heads = 128 concurrent steps of 128 KiB (enqueue.cc
  // l.2259-2275). 512 MiB is 4 MiB per step stream: 64 KiB chunks (below 1 GiB), 64 steps where
  // the full chunk takes 32; 16 MiB: 32 KiB chunks (below 64 MiB), 4 steps for 1; 4 MiB: 16 KiB
  // chunks (below 8 MiB), 2 steps for 0.25. Each added step costs the default 4 us.
  const NcclSetup h100 = setupOf("h100-1");
  const std::pair<uint64_t, double> cases[] = {
      {kGiB / 2, 32 * 4.0}, {uint64_t{16} << 20, 3 * 4.0}, {uint64_t{4} << 20, 1.75 * 4.0}, {kGiB, 0.0}};
  for (const auto& [bytes, extraUs] : cases) {
    INFO(bytes);
    const NcclChoice nvls =
        optionOf(ncclOptions(h100, {.collective = semantics::CollectiveType::AllReduce, .bytes = bytes}), "nvls",
                 ir::Protocol::Simple);
    REQUIRE(nvls.channels == 16);
    CHECK(nvls.timeUs - nvls.ncclTimeUs == Approx(extraUs).epsilon(1e-9));
  }
}

TEST_CASE("nccl model: small sizes, the floor and the channels a call uses") {
  const NcclSetup a100 = setupOf("a100-1");
  const auto options =
      ncclOptions(a100, {.collective = semantics::CollectiveType::AllReduce, .bytes = 1024, .gpusPerThread = 8});
  // Ring LL: 6.6 + 14 x 0.6 us; bus min(87.7, 240 x 0.5) x 8/14.
  CHECK(optionOf(options, "ring", ir::Protocol::LL).ncclTimeUs ==
        Approx(15 + 1024 / (1000 * 87.7 * 8 / 14)).epsilon(1e-9));
  // Tree LL: 6.8 + 2 x 7 x 0.6; bus min(240 x .92 / 3.8, 87.7) x .5, correction .9 at 1 KiB.
  CHECK(optionOf(options, "tree", ir::Protocol::LL).ncclTimeUs ==
        Approx(15.2 + 1024 / (1000 * (240 * .92 / 3.8) * .5 * .9)).epsilon(1e-9));
  // Predicted: no less than the floor of one thread launching on 8 GPUs: 5 + 7 x 4.5 us.
  CHECK(optionOf(options, "ring", ir::Protocol::LL).timeUs == Approx(36.5));
  // 1 KiB of allreduce is 8 KiB of LL traffic: one channel of 24.
  CHECK(optionOf(options, "ring", ir::Protocol::LL).channels == 1);
  CHECK(optionOf(ncclOptions(a100, {.collective = semantics::CollectiveType::AllReduce, .bytes = kGiB}), "ring",
                 ir::Protocol::Simple)
            .channels == 24);
}

TEST_CASE("nccl model: two boxes pay network steps and the ring plateau") {
  const NcclSetup a2 = setupOf("a100-2", {"NCCL_ALGO=Ring", "NCCL_PROTO=Simple"});
  const auto options = ncclOptions(a2, {.collective = semantics::CollectiveType::AllReduce, .bytes = kGiB});
  REQUIRE(options.size() == 1);
  // 30 steps, 2 across the network (14 us), 28 at max(3.4, 3 x 1.0); x 1.4 (the plateau); bus 8 x 24.
  CHECK(options.front().ncclTimeUs ==
        Approx((8.4 + 28 * 3.4 + 2 * 14) * 1.4 + kGiB / (1000 * 192.0 * 16 / 30)).epsilon(1e-9));
}

TEST_CASE("nccl model: alltoall as grouped point-to-point, and what NCCL does not have") {
  const NcclSetup h2 = setupOf("h100-2");
  const NcclChoice a2a = ncclChoice(h2, {.collective = semantics::CollectiveType::AllToAll, .bytes = 16 * kGiB});
  CHECK(a2a.algorithm == "p2p");
  // Each GPU's 8 remote shares of 1 GiB cross its own 50 GB/s NIC at 0.96: busbw 48 x 15/8.
  const double busbw = 16.0 * kGiB / (a2a.timeUs * 1e3) * 15 / 16;
  CHECK(busbw == Approx(48 * 15.0 / 8).epsilon(0.01));
  CHECK_THROWS_AS(ncclOptions(h2, {.collective = semantics::CollectiveType::Gather, .bytes = 1024}),
                  std::invalid_argument);
}

TEST_CASE("nccl environment: NCCL's list syntax") {
  const NcclEnvironment e = parseNcclEnvironment({"NCCL_ALGO=ring,tree;allreduce:^ring", "NCCL_PROTO=^LL128"});
  CHECK(e.algorithmOn(semantics::CollectiveType::AllGather, nccl::Algorithm::Ring));
  CHECK_FALSE(e.algorithmOn(semantics::CollectiveType::AllGather, nccl::Algorithm::Nvls));
  CHECK_FALSE(e.algorithmOn(semantics::CollectiveType::AllReduce, nccl::Algorithm::Ring));
  CHECK(e.algorithmOn(semantics::CollectiveType::AllReduce, nccl::Algorithm::Nvls));
  CHECK(e.protocolOn(semantics::CollectiveType::AllReduce, 1) == false);
  CHECK(e.protocolOn(semantics::CollectiveType::AllReduce, 2) == true);
  CHECK_THROWS_AS(parseNcclEnvironment({"NCCL_ALGO=ring;tree"}),
                  std::invalid_argument);  // second entry without a prefix
  CHECK_THROWS_AS(parseNcclEnvironment({"NCCL_ALGO=rung"}), std::invalid_argument);
  CHECK_THROWS_AS(parseNcclEnvironment({"NCCL_BUFFSIZE=1"}), std::invalid_argument);
  CHECK_THROWS_AS(parseNcclEnvironment({"NCCL_MAX_NCHANNELS=0"}), std::invalid_argument);
  CHECK_THROWS_AS(parseNcclEnvironment({"NCCL_ALGO"}), std::invalid_argument);
}
