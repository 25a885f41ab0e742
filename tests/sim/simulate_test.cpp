// Expected times follow from the cost model of docs/simulate.md (msccl-ir.md §2-3) by hand:
// time = base latency + bytes / rate + route latency, rates shared max-min fairly.
#include <catch2/catch.hpp>

#include <algorithm>

#include "fused_library.hpp"
#include "program_text.hpp"
#include "support/topology_support.hpp"
#include "base/input_error.hpp"
#include "ir/reader.hpp"
#include "topology/spec_reader.hpp"
#include "sim/simulate.hpp"
#include "sim/simulation_report.hpp"

using namespace ccforge;
using namespace ccforge::sim;
using test::programText;
using test::StepText;
using test::TbText;

namespace {

constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kUs25 = kMiB / 25e9 * 1e6;  // 1 MiB over 25 GB/s, in microseconds: 41.94304

// Two GPUs, one 25 GB/s link each way with alpha 1 us.
const char* kPair = R"({"name": "pair", "unit_GBps": 25, "alpha_us": 1,
  "vertices": [{"name": "a"}, {"name": "b"}], "links": [{"from": "a", "to": "b", "bw": 1}]})";

double timeOf(const std::string& program, const char* topology, uint64_t bytes, Arch arch = Arch::None) {
  ir::Algorithm a = ir::readAlgorithm(program, "p.xml").algorithm;
  topo::Topology t = topo::readTopology(topology, "t.json", {});
  SimulationOptions o;
  o.sizes = {bytes};
  o.arch = arch;
  return simulate(a, "p.xml", t, o).results.at(0).timeUs;
}

std::string oneSend(const std::string& proto) {
  return programText(proto, 1, {{{1, -1, 0, {{"s"}}}}, {{-1, 0, 0, {{"r"}}}}});
}

}  // namespace

TEST_CASE("one transfer: base latency + bytes over the link + alpha and hop latency") {
  // Simple: base 8.4 us, NVLink hop 3.4 us, alpha 1 us.
  CHECK(timeOf(oneSend("Simple"), kPair, 1 << 20) == Approx(8.4 + kUs25 + 4.4).epsilon(1e-9));
  // 4 MiB is two 2 MiB tiles, sent back to back.
  CHECK(timeOf(oneSend("Simple"), kPair, 4 << 20) == Approx(8.4 + 4 * kUs25 + 4.4).epsilon(1e-9));
  // LL: efficiency 0.5, base 6.6 us, hop 0.6 us; 32 tiles of 32 KiB, 8 slots.
  CHECK(timeOf(oneSend("LL"), kPair, 1 << 20) == Approx(6.6 + 2 * kUs25 + 1.6).epsilon(1e-9));
  // LL128: efficiency 0.92, base 14 us, hop 1.9 us.
  CHECK(timeOf(oneSend("LL128"), kPair, 1 << 20) == Approx(14 + kUs25 / 0.92 + 2.9).epsilon(1e-9));
}

TEST_CASE("sm80 caps one connection at NCCL's 20 GB/s NVLink channel bandwidth") {
  CHECK(timeOf(oneSend("Simple"), kPair, 1 << 20, Arch::Sm80) == Approx(8.4 + kMiB / 20e9 * 1e6 + 4.4).epsilon(1e-9));
  // Blackwell: 40.1 GB/s per connection, but the link moves 40.1/50 of its 25 GB/s (NCCL's rate
  // per NVLink5 link against its signalling rate).
  CHECK(timeOf(oneSend("Simple"), kPair, 1 << 20, Arch::Sm100) ==
        Approx(8.4 + kMiB / (25e9 * 40.1 / 50) * 1e6 + 4.4).epsilon(1e-9));
}

TEST_CASE("links move their transport's efficiency; calibration, the LL cap, the floor, spec rates") {
  // A 10 GB/s network link between two sm80 GPUs: 0.96 of it (under the 12 GB/s connection cap);
  // the network hop's Simple latency 14 us, alpha 1 us.
  const std::string net = R"({"name": "net", "sm": 80, "unit_GBps": 10, "alpha_us": 1, "link_class": "network",
    "vertices": [{"name": "a"}, {"name": "b"}], "links": [{"from": "a", "to": "b", "bw": 1}])";
  CHECK(timeOf(oneSend("Simple"), (net + "}").c_str(), 1 << 20, Arch::Sm80) ==
        Approx(8.4 + kMiB / 9.6e9 * 1e6 + 15).epsilon(1e-9));
  // The generation comes from the spec's "sm" when none is given.
  ir::Algorithm a = ir::readAlgorithm(oneSend("Simple"), "p.xml").algorithm;
  const topo::Topology plain = topo::readTopology(net + "}", "t.json", {});
  CHECK(simulate(a, "p.xml", plain, {.sizes = {1 << 20}, .arch = std::nullopt}).results[0].timeUs ==
        Approx(8.4 + kMiB / 9.6e9 * 1e6 + 15).epsilon(1e-9));
  // At spec link rates (what bounds assume): 10 GB/s.
  CHECK(simulate(a, "p.xml", plain,
                 {.sizes = {1 << 20}, .arch = std::nullopt, .eventLimit = kDefaultEventLimit, .specLinkRates = true})
            .results[0]
            .timeUs == Approx(8.4 + kMiB / 10e9 * 1e6 + 15).epsilon(1e-9));
  // A calibration replaces the defaults: the network at half its rate, a 100 us floor.
  const std::string calibrated = net + R"(, "calibration": {"network_efficiency": 0.5, "launch_us": 100}})";
  CHECK(timeOf(oneSend("Simple"), calibrated.c_str(), 64, Arch::Sm80) == Approx(100));
  CHECK(timeOf(oneSend("Simple"), calibrated.c_str(), 1 << 20, Arch::Sm80) ==
        Approx(8.4 + kMiB / 5e9 * 1e6 + 15).epsilon(1e-9));
  // NCCL's LL cap (141 GB/s on one Hopper node) scaled to 7.05 GB/s binds a single LL connection
  // (otherwise 20.6 x 0.5 GB/s): 6.6 us base, 0.6 hop, 1 alpha.
  const std::string ll =
      R"({"name": "ll", "sm": 90, "unit_GBps": 25, "alpha_us": 1, "calibration": {"ll_bandwidth_scale": 0.05},
    "vertices": [{"name": "a"}, {"name": "b"}], "links": [{"from": "a", "to": "b", "bw": 1}]})";
  CHECK(timeOf(oneSend("LL"), ll.c_str(), 1 << 20, Arch::Sm90) ==
        Approx(6.6 + kMiB / 7.05e9 * 1e6 + 1.6).epsilon(1e-6));
}

TEST_CASE("two transfers into one GPU share the switch's link to it") {
  const char* star = R"({"name": "sw", "unit_GBps": 25, "family": {"kind": "switch", "n": 3, "bw": 1}})";
  std::string p = programText(
      "Simple", 1, {{{2, -1, 0, {{"s"}}}}, {{2, -1, 0, {{"s"}}}}, {{-1, 0, 0, {{"r"}}}, {-1, 1, 0, {{"r"}}}}});
  CHECK(timeOf(p, star, 1 << 20) == Approx(8.4 + 2 * kUs25 + 3.4).epsilon(1e-9));
}

TEST_CASE("forwarding steps pass data on as it arrives (cut-through)") {
  const char* line = R"({"name": "line", "unit_GBps": 25, "family": {"kind": "line", "n": 3, "bw": 1}})";
  std::string p = programText("Simple", 1, {{{1, -1, 0, {{"s"}}}}, {{2, 0, 0, {{"rcs"}}}}, {{-1, 1, 0, {{"r"}}}}});
  CHECK(timeOf(p, line, 1 << 20) == Approx(8.4 + 3.4 + kUs25 + 3.4).epsilon(1e-9));
}

TEST_CASE("a dependency delays a step until the flagged step is done") {
  const char* full = R"({"name": "k3", "unit_GBps": 25, "family": {"kind": "fully_connected", "n": 3, "bw": 1}})";
  StepText flagged{"s", 1, -1, -1, 1};
  StepText waits{"s", 1, 0, 0, 0};
  std::string p = programText(
      "Simple", 1, {{{1, -1, 0, {flagged}}, {2, -1, 0, {waits}}}, {{-1, 0, 0, {{"r"}}}}, {{-1, 0, 0, {{"r"}}}}});
  CHECK(timeOf(p, full, 1 << 20) == Approx(8.4 + 2 * kUs25 + 3.4).epsilon(1e-9));
}

TEST_CASE("a program that waits on itself is reported as a deadlock, never a hang") {
  std::string p = programText("Simple", 1, {{{1, 1, 0, {{"r"}, {"s"}}}}, {{0, 0, 0, {{"r"}, {"s"}}}}});
  CHECK_THROWS_WITH(timeOf(p, kPair, 1 << 20), Catch::Contains("deadlock") && Catch::Contains("rank 0 tb 0 step 0") &&
                                                   Catch::Contains("waits for data on connection 1->0 ch 0"));
}

TEST_CASE("paired steps with different cnt are a violation") {
  std::string p = programText("Simple", 2, {{{1, -1, 0, {{"s", 2}}}}, {{-1, 0, 0, {{"r", 1}, {"r", 1}}}}});
  CHECK_THROWS_AS(timeOf(p, kPair, 4096), SimulationViolation);
  // With chunks as large as a tile, cnt 2 becomes two transfers and the pairing holds.
  CHECK_NOTHROW(timeOf(p, kPair, 8 << 20));
}

TEST_CASE("programs that do not fit the topology are input errors") {
  std::string three = programText("Simple", 1, {{{1, -1, 0, {{"s"}}}}, {{-1, 0, 0, {{"r"}}}}, {}});
  CHECK_THROWS_WITH(timeOf(three, kPair, 1024),
                    Catch::Contains("the algorithm has 3 ranks but topology pair has only 2 GPUs"));
  const char* oneWay = R"({"name": "oneway", "vertices": [{"name": "a"}, {"name": "b"}],
    "links": [{"from": "a", "to": "b", "bw": 1, "directed": true}]})";
  std::string back = programText("Simple", 1, {{{-1, 1, 0, {{"r"}}}}, {{0, -1, 0, {{"s"}}}}});
  CHECK_THROWS_WITH(timeOf(back, oneWay, 1024),
                    Catch::Contains("p.xml:") && Catch::Contains("connection rank 1 -> rank 0 (b -> a) has no route"));
  std::string noPeer = programText("Simple", 1, {{{-1, -1, 0, {{"s"}}}}, {}});
  CHECK_THROWS_AS(timeOf(noPeer, kPair, 1024), base::InputError);
}

TEST_CASE("two blocks on one side of a connection are a violation") {
  std::string p = programText("Simple", 1, {{{1, -1, 0, {{"s"}}}, {1, -1, 0, {{"s"}}}}, {{-1, 0, 0, {{"r"}, {"r"}}}}});
  CHECK_THROWS_WITH(timeOf(p, kPair, 1024),
                    Catch::Contains("two thread blocks of rank 0 send on connection 0->1 ch 0"));
}

TEST_CASE("the event limit stops a long simulation") {
  ir::Algorithm a = ir::readAlgorithm(oneSend("LL"), "p.xml").algorithm;
  topo::Topology t = topo::readTopology(kPair, "t.json", {});
  SimulationOptions o;
  o.sizes = {uint64_t{1} << 30};
  o.eventLimit = 100;
  CHECK_THROWS_AS(simulate(a, "p.xml", t, o), SimulationLimit);
}

TEST_CASE("busbw uses nccl-tests' factors") {
  CHECK(busBandwidthFactor(semantics::CollectiveType::AllReduce, 8) == Approx(1.75));
  CHECK(busBandwidthFactor(semantics::CollectiveType::AllGather, 8) == Approx(0.875));
  CHECK(busBandwidthFactor(semantics::CollectiveType::AllToAll, 4) == Approx(0.75));
  CHECK(busBandwidthFactor(semantics::CollectiveType::Broadcast, 8) == 1);
}

// Ranks are <gpu id>s, wherever the elements stand (msccl_parser.cc finds a rank's program by
// id); issue 11 found `simulate` indexing them by position.
TEST_CASE("gpu elements out of id order simulate as in order") {
  ir::Algorithm a =
      ir::readAlgorithmFile(std::string(CCFORGE_FIXTURES) + "/msccl-tools/valid/allgather_ring_simple_oop_n4.xml")
          .algorithm;
  const topo::Topology t = topo::loadTopology("dgx1");
  SimulationOptions o;
  o.sizes = {1 << 20, 64 << 20};
  const SimulationReport inOrder = simulate(a, "a.xml", t, o);
  std::reverse(a.gpus.begin(), a.gpus.end());
  const SimulationReport reversed = simulate(a, "a.xml", t, o);
  for (size_t i = 0; i < o.sizes.size(); ++i) CHECK(reversed.results[i].timeUs == inOrder.results[i].timeUs);
}

// simulate reads the same loaded form as verify and the runtime: what has no execution is refused.
TEST_CASE("a structurally broken program is refused with its location, not simulated") {
  const std::string noGpus =
      "<algo name=\"t\" proto=\"Simple\" nchannels=\"1\" nchunksperloop=\"1\" ngpus=\"2\" coll=\"allreduce\" "
      "inplace=\"0\" "
      "outofplace=\"1\" minBytes=\"0\" maxBytes=\"0\">\n</algo>\n";
  CHECK_THROWS_WITH(timeOf(noGpus, kPair, 1024),
                    Catch::Contains("p.xml:1:1") && Catch::Contains("ngpus=2 but the file has 0 <gpu> elements"));
  const std::string badDependency = programText("Simple", 1, {{{1, -1, 0, {{"s", 1, 5, 0}}}}, {{-1, 0, 0, {{"r"}}}}});
  CHECK_THROWS_AS(timeOf(badDependency, kPair, 1024), base::InputError);
}

TEST_CASE("a relayed transfer shares every link it crosses with the other transfers") {
  // gpu0 -> gpu2 passes gpu1, where the fabric relays; gpu1 -> gpu2 is direct.
  const char* relayLine =
      R"({"name": "relayline", "unit_GBps": 25, "gpu_relay": true, "family": {"kind": "line", "n": 3, "bw": 1}})";
  const std::string alone = programText("Simple", 1, {{{2, -1, 0, {{"s"}}}}, {}, {{-1, 0, 0, {{"r"}}}}});
  CHECK(timeOf(alone, relayLine, 1 << 20) == Approx(8.4 + kUs25 + 3.4).epsilon(1e-9));
  // With the direct transfer beside it, each gets half of gpu1 -> gpu2.
  const std::string both = programText(
      "Simple", 1, {{{2, -1, 0, {{"s"}}}}, {{2, -1, 0, {{"s"}}}}, {{-1, 0, 0, {{"r"}}}, {-1, 1, 0, {{"r"}}}}});
  CHECK(timeOf(both, relayLine, 1 << 20) == Approx(8.4 + 2 * kUs25 + 3.4).epsilon(1e-9));
  // Where the fabric does not relay, the connection has no route, located at its thread block.
  const char* line = R"({"name": "line", "unit_GBps": 25, "family": {"kind": "line", "n": 3, "bw": 1}})";
  CHECK_THROWS_WITH(timeOf(alone, line, 1 << 20),
                    Catch::StartsWith("p.xml:3:5: connection rank 0 -> rank 2 (gpu0 -> gpu2) has no route in topology "
                                      "line: neither a direct link nor a path through switches or NICs"));
}

TEST_CASE("GEMV + AllReduce on 4 and 8 ranks runs on mi250-1's first GCDs, relayed where they have no direct link") {
  for (int ranks : {4, 8}) {
    INFO(ranks << " ranks");
    const int k = 4096 / ranks;  // row-parallel: W_r is M x K/R, M = K = 4096
    const ir::Algorithm gemv = algorithms::fusedProgram(algorithms::fusedParameters(
        "gemv-allreduce", {"ranks=" + std::to_string(ranks), "m=4096", "k=" + std::to_string(k), "chunks=4"}));
    SimulationOptions o;
    o.sizes = {4096 * 4};
    const SimulationReport r = simulate(gemv, "g.xml", topo::loadTopology("mi250-1"), o);
    // At least the base latency and one rank's GEMV at its roofline: W_r at 1638 GB/s.
    CHECK(r.results.at(0).timeUs > 8.4 + 4096.0 * k * 4 / 1638e9 * 1e6);
    // Rank r is gpu r of the 16: without relaying, rank 0 -> rank 2 has no route.
    CHECK_THROWS_WITH(
        simulate(gemv, "g.xml", test::mi250WithoutRelay(), o),
        Catch::Contains("connection rank 0 -> rank 2 (gpu0 -> gpu2) has no route in topology mi250-1-no-relay"));
  }
}

// The report `ccforge simulate --sizes` prints, from the library (sim/simulation_report.hpp).
TEST_CASE("simulation report: the size table marks sizes outside the file's window; JSON has every size") {
  ir::Algorithm a;
  a.name = "ring";
  a.collName = "allreduce";
  a.proto = ir::Protocol::LL;
  a.nchannels = 2;
  a.gpus.resize(4);
  sim::SimulationReport r;
  r.busbwFactor = 1.5;
  r.results = {{1024, 10, 0.1024, 0.1536, true, 1, 8, 0}, {1 << 20, 100, 10.48576, 15.72864, false, 2, 16, 0.5}};
  const topo::Topology t = topo::loadTopology("dgx1");
  const std::string text = sim::simulationText("ring.xml", a, t, sim::Arch::Sm70, r);
  CHECK(text.starts_with("simulate ring.xml on dgx1: allreduce, 4 ranks, LL, 2 channels, arch sm70\n"));
  CHECK(text.find("       1 KiB         10.00         0.10         0.15\n") != std::string::npos);
  CHECK(text.find("       1 MiB        100.00        10.49        15.73  *\n") != std::string::npos);
  CHECK(text.ends_with("* outside the algorithm's minBytes..maxBytes: the runtime would not select it\n"));
  const std::string json = sim::simulationJson("ring.xml", a, t, sim::Arch::Sm70, r);
  CHECK(json.find("\"busbw_factor\": 1.5") != std::string::npos);
  CHECK(json.find("\"in_size_window\": false") != std::string::npos);
}
