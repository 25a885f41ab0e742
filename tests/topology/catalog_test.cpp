// The catalog against the published figures of each machine (its spec's description names them).
#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "topology/catalog.hpp"
#include "topology/spec_reader.hpp"
#include "topology/summary.hpp"
#include "topology/summary_report.hpp"

using namespace ccforge::topo;

namespace {

Rational egress(const Topology& t, int32_t vertex) {
  Rational sum = 0;
  for (int32_t id : t.outLinks(vertex)) sum += t.links()[static_cast<size_t>(id)].bandwidthGBps;
  return sum;
}

Rational bandwidth(const Topology& t, const std::string& from, const std::string& to) {
  auto a = t.findVertex(from), b = t.findVertex(to);
  REQUIRE(a);
  REQUIRE(b);
  auto id = t.findLink(*a, *b);
  return id ? t.links()[static_cast<size_t>(*id)].bandwidthGBps : Rational(0);
}

}  // namespace

TEST_CASE("every catalog topology of the issue loads, with its GPU count") {
  const std::map<std::string, size_t> expected{{"dgx1", 8},     {"ndv2-1", 8},   {"ndv2-2", 16}, {"ndv2-4", 32},
                                               {"dgx2-1", 16},  {"dgx2-2", 32},  {"a100-1", 8},  {"a100-2", 16},
                                               {"a100-4", 32},  {"a100-8", 64},  {"h100-1", 8},  {"h100-2", 16},
                                               {"mi250-1", 16}, {"mi250-2", 32}, {"amd-z52", 8}};
  for (const auto& [name, gpus] : expected) {
    INFO(name);
    Topology t = loadTopology(name);
    CHECK(t.name == name);
    CHECK(t.gpus().size() == gpus);
  }
  CHECK(catalogEntries().size() == expected.size());
}

TEST_CASE("DGX-1: 24 NVLinks of 25 GB/s, 6 per GPU, the double links form a ring") {
  Topology t = loadTopology("dgx1");
  Rational total = 0;
  for (const Link& l : t.links()) total += l.bandwidthGBps;
  CHECK(total == 2 * 24 * 25);
  for (int32_t g : t.gpus()) CHECK(egress(t, g) == 150);
  const int ring[] = {0, 1, 3, 2, 6, 7, 5, 4, 0};
  for (int i = 0; i < 8; ++i)
    CHECK(bandwidth(t, "gpu" + std::to_string(ring[i]), "gpu" + std::to_string(ring[i + 1])) == 50);
  CHECK(bandwidth(t, "gpu0", "gpu5") == 0);
  Topology ndv2 = loadTopology("ndv2-1");
  REQUIRE(ndv2.links().size() == t.links().size());
  for (size_t i = 0; i < t.links().size(); ++i) CHECK(ndv2.links()[i].bandwidthGBps == t.links()[i].bandwidthGBps);
}

TEST_CASE("switch boxes: DGX-2 150 GB/s, A100 300 GB/s, H100 450 GB/s per GPU") {
  for (auto [name, gbps] : {std::pair{"dgx2-1", 150}, {"a100-1", 300}, {"h100-1", 450}}) {
    INFO(name);
    Topology t = loadTopology(name);
    for (int32_t g : t.gpus()) {
      REQUIRE(t.outLinks(g).size() == 1);
      const Link& up = t.links()[static_cast<size_t>(t.outLinks(g)[0])];
      CHECK(up.bandwidthGBps == gbps);
      CHECK(t.vertices()[static_cast<size_t>(up.to)].kind == VertexKind::Switch);
    }
  }
}

TEST_CASE("multi-box A100 and H100: one NIC per GPU, a rail leaf per NIC index, a non-blocking spine") {
  for (auto [name, nic, boxes] : {std::tuple{"a100-4", 25, 4}, {"h100-2", 50, 2}}) {
    INFO(name);
    Topology t = loadTopology(name);
    CHECK(t.pxn);
    CHECK(bandwidth(t, "b1.gpu5", "b1.nic5") == nic);
    CHECK(bandwidth(t, "b1.nic5", "ib5") == nic);
    CHECK(bandwidth(t, "b1.nic4", "ib4") == nic);
    CHECK(bandwidth(t, "b1.nic4", "ib5") == 0);
    // Each leaf's uplink carries what its NICs bring (oversubscription 1).
    CHECK(bandwidth(t, "ib5", "spine") == nic * boxes);
    CHECK(bandwidth(t, "spine", "ib5") == nic * boxes);
    CHECK(egress(t, *t.findVertex("b1.gpu5")) == (std::string(name) == "a100-4" ? 325 : 500));
  }
  // The GPU generation and NVLS come from the box.
  CHECK(loadTopology("h100-2").sm == 90);
  CHECK(loadTopology("h100-2").nvls);
  CHECK(loadTopology("a100-2").sm == 80);
  CHECK_FALSE(loadTopology("a100-2").nvls);
  CHECK(loadTopology("dgx1").sm == 70);
}

TEST_CASE("MI250: 7 xGMI units of 50 GB/s per GCD and two boxes add 16 GB/s per GCD") {
  Topology one = loadTopology("mi250-1");
  CHECK(one.links().size() == 2 * 28);
  for (int32_t g : one.gpus()) CHECK(egress(one, g) == 350);
  CHECK(bandwidth(one, "gpu0", "gpu1") == 200);
  CHECK(bandwidth(one, "gpu11", "gpu15") == 100);
  Topology two = loadTopology("mi250-2");
  for (int32_t g : two.gpus()) CHECK(egress(two, g) == 366);
}

TEST_CASE("AMD Z52: fully connected, relative bandwidths 5 and 6") {
  Topology t = loadTopology("amd-z52");
  CHECK(t.links().size() == 2 * 28);
  CHECK(bandwidth(t, "gpu0", "gpu2") == 6);
  CHECK(bandwidth(t, "gpu6", "gpu7") == 6);
  CHECK(bandwidth(t, "gpu5", "gpu7") == 5);
}

TEST_CASE("TE-CCL link models: NDv2 and DGX-2 boxes joined by directed 12.5 GB/s links") {
  Topology ndv2 = loadTopology("ndv2-2");
  CHECK(bandwidth(ndv2, "b0.gpu0", "b1.gpu1") == Rational(25, 2));
  CHECK(bandwidth(ndv2, "b1.gpu1", "b0.gpu0") == 0);
  CHECK(bandwidth(ndv2, "b1.gpu0", "b0.gpu1") == Rational(25, 2));
  Topology four = loadTopology("ndv2-4");
  auto ib = four.findVertex("ib");
  REQUIRE(ib);
  CHECK(four.inLinks(*ib).size() == 4);
  CHECK(four.outLinks(*ib).size() == 4);
  CHECK(bandwidth(four, "ib", "b3.gpu1") == Rational(25, 2));
  Topology dgx2 = loadTopology("dgx2-2");
  CHECK(bandwidth(dgx2, "b0.gpu7", "b1.gpu6") == Rational(25, 2));
  CHECK(bandwidth(dgx2, "b1.gpu7", "b0.gpu6") == Rational(25, 2));
  CHECK(bandwidth(dgx2, "b0.gpu6", "b1.gpu7") == 0);
  CHECK(egress(dgx2, *dgx2.findVertex("b0.gpu2")) == 125);
}

// The reports of `topo show` and `topo list`, from the library (topology/summary_report.hpp).
TEST_CASE("topology reports: dgx1's summary as text and JSON, and the catalog list") {
  const topo::Topology dgx1 = topo::loadTopology("dgx1");
  const topo::TopologySummary s = topo::summarize(dgx1);
  const std::string text = topo::summaryText(dgx1, s);
  CHECK(text.find("vertices: 8 GPUs, 0 switches, 0 NICs in 1 box\n") != std::string::npos);
  CHECK(text.find("GPU egress: 150 GB/s on every GPU\n") != std::string::npos);
  CHECK(text.find("diameter: 2 steps (GPU-to-GPU transfers; switches and NICs are not steps)\n") != std::string::npos);
  CHECK(text.find("GPU orbits: 2 (0 2 4 6 | 1 3 5 7)\n") != std::string::npos);
  const std::string json = topo::summaryJson(dgx1, s);
  CHECK(json.find("\"diameter_steps\": 2") != std::string::npos);
  CHECK(json.find("\"links\": 32") != std::string::npos);
  CHECK(topo::catalogText().find("\na100-2: 16 GPUs. ") != std::string::npos);
}
