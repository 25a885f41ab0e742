// NCCL's fallback model (sim/nccl_fallback.hpp). Expected times are worked out by hand from the
// constants of NVIDIA/nccl src/graph/tuning.cc (docs/tune.md cites the lines).
#include <catch2/catch.hpp>

#include "sim/nccl_fallback.hpp"
#include "topology/spec_reader.hpp"

using namespace ccforge;
using namespace ccforge::sim;

namespace {
// One box of 8 NVLink GPUs, Ampere, 10 channels of 24 GB/s: busBw 240 GB/s.
NcclMachine eightGpus() {
  NcclMachine m;
  m.ranks = 8;
  m.nodes = 1;
  m.generation = NcclGeneration::Ampere;
  m.channels = 10;
  m.perChannelGBps = 24;
  m.gpuIntraGBps = 150;
  return m;
}
double timeOf(const std::vector<NcclChoice>& options, const std::string& algorithm, ir::Protocol p) {
  for (const NcclChoice& c : options)
    if (c.algorithm == algorithm && c.protocol == p) return c.timeUs;
  return -1;
}
}  // namespace

TEST_CASE("nccl fallback: ring and tree allreduce follow tuning.cc") {
  const NcclMachine m = eightGpus();
  // Ring Simple, 1 GiB: lat 8.4 + 14 steps x 3.4 = 56 us; bw 240 x 8/14 GB/s.
  const auto big = ncclOptions(m, ir::CollectiveKind::AllReduce, uint64_t{1} << 30);
  CHECK(timeOf(big, "ring", ir::Protocol::Simple) == Approx(7885.3675).epsilon(1e-6));
  // 1 KiB: ring LL: lat 6.6 + 14 x 0.6 = 15; bw min(87.7, 120) x 8/14.
  const auto small = ncclOptions(m, ir::CollectiveKind::AllReduce, 1024);
  CHECK(timeOf(small, "ring", ir::Protocol::LL) == Approx(15.0204333).epsilon(1e-6));
  // Tree LL: lat 6.8 + 2 x 7 x 0.6 = 15.2; bw min(240 x .92 / 3.8, 87.7) x .5 x correction .9 (log2(1024/64) = 4).
  CHECK(timeOf(small, "tree", ir::Protocol::LL) == Approx(15.2391626).epsilon(1e-6));
  const NcclChoice pick = ncclFallback(m, ir::CollectiveKind::AllReduce, 1024);
  CHECK(pick.algorithm == "ring");
  CHECK(pick.protocol == ir::Protocol::LL);
  CHECK(ncclOptions(m, ir::CollectiveKind::AllGather, 1024).size() == 3);  // ring only
}

TEST_CASE("nccl fallback: two nodes pay network steps, the ring plateau and the tree's network hop") {
  NcclMachine m = eightGpus();
  m.ranks = 16;
  m.nodes = 2;
  m.perChannelGBps = 20;  // 10 channels: 200 GB/s
  const auto options = ncclOptions(m, ir::CollectiveKind::AllReduce, uint64_t{1} << 30);
  // Ring Simple: 30 steps, 2 of them over the network (14 us), the other 28 at max(3.4, 3 x 1.0)
  // = 3.4 us; lat (8.4 + 28 x 3.4 + 2 x 14) x 1.4 (the multi-node plateau); bw 200 x 16/30.
  CHECK(timeOf(options, "ring", ir::Protocol::Simple) == Approx(10250.5696).epsilon(1e-6));
  // Tree LL128: bus bw min(200 x .92, 10 x 23.6) x 120/128 (2 nodes), halved; lat 14 + 2 x (7 x
  // 1.25 + 1 x 8.5); no correction factor at 2^24 x 64 B.
  CHECK(timeOf(options, "tree", ir::Protocol::LL128) == Approx(12497.6806).epsilon(1e-6));
}

TEST_CASE("nccl fallback: alltoall as p2p, and collectives it does not model") {
  const NcclMachine m = eightGpus();
  // 8.4 + 3.4 us, then 7 peers x 128 KiB over 150 GB/s.
  CHECK(ncclFallback(m, ir::CollectiveKind::AllToAll, uint64_t{1} << 20).timeUs == Approx(17.9166933).epsilon(1e-6));
  CHECK_THROWS_AS(ncclOptions(m, ir::CollectiveKind::Broadcast, 1024), std::invalid_argument);
}

TEST_CASE("nccl fallback: the machine read off a topology") {
  // DGX-1: every V100 has 6 NVLinks, which NCCL reads as 20 GB/s each (topo.h SM70_NVLINK_BW):
  // 120 GB/s in channels of 20 GB/s (sm80): 6 of 20.
  const NcclMachine dgx1 = ncclMachineOf(topo::loadTopology("dgx1"), Arch::Sm80);
  CHECK(dgx1.ranks == 8);
  CHECK(dgx1.nodes == 1);
  CHECK(dgx1.channels == 6);
  CHECK(dgx1.perChannelGBps == Approx(20));
  CHECK(dgx1.intraClass == topo::LinkClass::NVLink);
  CHECK(dgx1.intraAlphaUs == Approx(0.7));  // the spec's alpha on every NVLink
  CHECK(dgx1.interAlphaUs == 0);
  // Two DGX-A100s: one 25 GB/s NIC per GPU.
  const NcclMachine a100 = ncclMachineOf(topo::loadTopology("a100-2"), Arch::Sm80);
  CHECK(a100.ranks == 16);
  CHECK(a100.nodes == 2);
  CHECK(a100.gpuNetworkGBps == Approx(25));
  CHECK(a100.interAlphaUs >= 2.6);  // IB alone is 2.6 us end to end (the spec's description)
}
