#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "base/input_error.hpp"
#include "topology/spec_reader.hpp"

using namespace ccforge;
using namespace ccforge::topo;

namespace {

// The error a spec produces, or "" when it reads.
std::string errorOf(const std::string& text) {
  try {
    readTopology(text, "t.json", {});
  } catch (const base::InputError& e) {
    return e.what();
  }
  return "";
}

const char* kTwoGpus = R"({
  "name": "pair",
  "unit_GBps": 25,
  "alpha_us": 0.5,
  "vertices": [{"name": "a"}, {"name": "b"}],
  "links": [{"from": "a", "to": "b", "bw": 2}]
})";

}  // namespace

TEST_CASE("a small spec reads into the model, undirected links becoming two") {
  Topology t = readTopology(kTwoGpus, "t.json", {});
  CHECK(t.name == "pair");
  REQUIRE(t.gpus().size() == 2);
  REQUIRE(t.links().size() == 2);
  CHECK(t.links()[0].bandwidthGBps == 50);
  CHECK(t.links()[1].from == t.links()[0].to);
  CHECK(t.links()[0].alphaUs == 0.5);
  CHECK(t.links()[0].linkClass == LinkClass::NVLink);
  CHECK(t.links()[0].where.line == 6);
  CHECK(t.unitGBps == 25);
}

TEST_CASE("bandwidths are exact: decimals and p/q strings") {
  Topology t = readTopology(R"({"name": "x", "vertices": [{"name": "a"}, {"name": "b"}],
    "links": [{"from": "a", "to": "b", "bw": 12.5, "directed": true},
              {"from": "b", "to": "a", "bw": "8/25", "directed": true}]})",
                            "t.json", {});
  REQUIRE(t.links().size() == 2);
  CHECK(t.links()[0].bandwidthGBps == Rational(25, 2));
  CHECK(t.links()[1].bandwidthGBps == Rational(8, 25));
}

TEST_CASE("errors name file, line, column and the JSON pointer") {
  std::string zero = R"({"name": "x", "vertices": [{"name": "a"}, {"name": "b"}],
"links": [{"from": "a", "to": "b", "bw": 0}]})";
  CHECK(errorOf(zero) == "t.json:2:42: /links/0/bw: bandwidth must be positive, got 0");
  CHECK_THAT(errorOf(R"({"name": "x", "vertices": [{"name": "a"}], "bandwith": 3})"),
             Catch::StartsWith("t.json:1:56: /bandwith: unknown key 'bandwith'"));
  CHECK(errorOf(R"({"name": "x", "vertices": [{"name": "a"}],
  "links": [{"from": "a", "to": "c", "bw": 1}]})") == "t.json:2:33: /links/0/to: no vertex named 'c'");
  CHECK(errorOf(R"({"name": "x", "name": "y", "vertices": [{"name": "a"}]})") == "t.json:1:23: /name: duplicate key");
  CHECK(errorOf(R"({"name": "x", "vertices": [{"name": "a", "kind": "cpu"}]})") ==
        "t.json:1:50: /vertices/0/kind: vertex kind must be gpu, switch or nic");
}

TEST_CASE("malformed JSON is located") {
  CHECK_THAT(errorOf("{\n  \"name\": \"x\",\n  }"), Catch::StartsWith("t.json:3:3: malformed JSON:"));
  CHECK_THAT(errorOf(""), Catch::StartsWith("t.json:1:1: malformed JSON:"));
  CHECK_THAT(errorOf(std::string(100000, '[') + std::string(100000, ']')), Catch::Contains("nest deeper"));
}

TEST_CASE("nonsensical topologies are rejected") {
  CHECK_THAT(errorOf(R"({"vertices": [{"name": "a"}]})"), Catch::Contains("missing key 'name'"));
  CHECK_THAT(errorOf(R"({"name": "x", "vertices": [{"name": "s", "kind": "switch"}]})"),
             Catch::Contains("the topology has no GPU"));
  CHECK_THAT(errorOf(R"({"name": "x", "vertices": [{"name": "a"}, {"name": "a"}]})"),
             Catch::Contains("/vertices/1: vertex 'a' is declared twice"));
  CHECK_THAT(errorOf(R"({"name": "x", "vertices": [{"name": "a"}], "links": [{"from": "a", "to": "a", "bw": 1}]})"),
             Catch::Contains("link from 'a' to itself"));
  CHECK_THAT(errorOf(R"({"name": "x", "vertices": [{"name": "a"}, {"name": "b"}],
  "links": [{"from": "a", "to": "b", "bw": 1}, {"from": "b", "to": "a", "bw": 1}]})"),
             Catch::Contains("t.json:2:48: /links/1: a second link b -> a (the first is at line 2)"));
  CHECK_THAT(errorOf(R"({"name": "x", "vertices": [{"name": "a"}, {"name": "b"}],
  "links": [{"from": "a", "to": "b", "bw": -3}]})"),
             Catch::Contains("bandwidth must be positive, got -3"));
  CHECK_THAT(errorOf(R"({"name": "x", "vertices": [{"name": "a"}, {"name": "b"}],
  "links": [{"from": "a", "to": "b", "bw": 1e3}]})"),
             Catch::Contains("without an exponent"));
  CHECK_THAT(errorOf(R"({"name": "x", "vertices": [{"name": "a"}, {"name": "b"}],
  "links": [{"from": "a", "to": "b", "bw": "1/0"}]})"),
             Catch::Contains("not an exact number"));
  CHECK_THAT(errorOf(R"({"name": "x", "vertices": [{"name": "a"}, {"name": "b"}],
  "links": [{"from": "a", "to": "b", "bw": 1, "alpha_us": -1}]})"),
             Catch::Contains("latency must be a finite number >= 0"));
  CHECK_THAT(errorOf(R"({"name": "x", "vertices": [{"name": "a"}, {"name": "b"}],
  "links": [{"from": "a", "to": "b", "bw": 1, "link_class": "infiniband"}]})"),
             Catch::Contains("link class must be nvlink, pcie or network"));
  CHECK_THAT(errorOf(R"({"name": "a b", "vertices": [{"name": "a"}]})"), Catch::Contains("/name: a name uses"));
  CHECK_THAT(errorOf(R"({"name": "x", "unit_GBps": 0, "vertices": [{"name": "a"}]})"),
             Catch::Contains("/unit_GBps: bandwidth must be positive"));
}

TEST_CASE("family parameters are checked where they are written") {
  CHECK_THAT(errorOf(R"({"name": "x", "family": {"kind": "donut", "n": 4, "bw": 1}})"),
             Catch::Contains("/family/kind: unknown family"));
  CHECK_THAT(errorOf(R"({"name": "x", "family": {"kind": "ring", "dims": [4], "bw": 1}})"),
             Catch::Contains("/family/dims: not a parameter of ring; it takes 'n'"));
  CHECK_THAT(errorOf(R"({"name": "x", "family": {"kind": "torus", "dims": [4, 0], "bw": 1}})"),
             Catch::Contains("/family/dims/1: must be 1 to 4096"));
  CHECK_THAT(errorOf(R"({"name": "x", "family": {"kind": "line", "n": 4, "bw": 1, "directed": true}})"),
             Catch::Contains("'directed' applies to ring and torus only"));
  CHECK_THAT(errorOf(R"({"name": "x", "family": {"kind": "ring", "n": 0, "bw": 1}})"),
             Catch::Contains("ring: n must be >= 1"));
  CHECK_THAT(errorOf(R"({"name": "x", "family": {"kind": "fully_connected", "n": 4000, "bw": 1}})"),
             Catch::Contains("fully_connected: at most 512 GPUs"));
}

TEST_CASE("boxes replicate a catalog topology and join NICs by a network") {
  Topology t = readTopology(R"({"name": "two", "unit_GBps": 25,
    "boxes": {"count": 2, "box": "a100-1", "nics": {"bw": 1},
              "network": {"kind": "rails", "switches": 2, "bw": 1}}})",
                            "t.json", {});
  CHECK(t.gpus().size() == 16);
  CHECK(t.boxCount() == 2);
  auto gpu = t.findVertex("b1.gpu3");
  REQUIRE(gpu);
  CHECK(t.rankOf(*gpu) == 11);
  auto nic = t.findVertex("b1.nic3");
  auto rail1 = t.findVertex("ib1");
  REQUIRE(nic);
  REQUIRE(rail1);
  CHECK(t.findLink(*gpu, *nic));
  CHECK(t.findLink(*nic, *rail1));
  CHECK(t.links()[static_cast<size_t>(*t.findLink(*nic, *rail1))].bandwidthGBps == 25);
  CHECK_FALSE(t.findLink(*t.findVertex("b1.nic2"), *rail1));
}

TEST_CASE("box references are resolved and their errors located") {
  CHECK_THAT(errorOf(R"({"name": "x", "boxes": {"count": 2, "box": "no-such-box"}})"),
             Catch::Contains("t.json:1:44: /boxes/box: no such file, and not a catalog topology (a100-1"));
  CHECK_THAT(errorOf(R"({"name": "x", "boxes": {"count": 2, "box": "dgx1", "network": {"kind": "switch", "bw": 1}}})"),
             Catch::Contains("a network joins NICs"));
  CHECK_THAT(errorOf(R"({"name": "x", "boxes": {"count": 2, "box": "dgx1", "nics": {"bw": 1, "gpus_per_nic": 3}}})"),
             Catch::Contains("gpus_per_nic must divide the 8 GPUs of a box"));

  auto dir = std::filesystem::temp_directory_path() / ("ccforge_topo_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "loop.json") << R"({"name": "loop", "boxes": {"count": 2, "box": "loop.json"}})";
  std::ofstream(dir / "bad.json") << "{\"name\": \"bad\",\n \"vertices\": 3}";
  std::ofstream(dir / "outer.json") << R"({"name": "outer", "boxes": {"count": 2, "box": "bad.json"}})";
  CHECK_THROWS_WITH(readTopologyFile(dir / "loop.json"), Catch::Contains("boxes nest deeper than 8 levels"));
  CHECK_THROWS_WITH(readTopologyFile(dir / "outer.json"),
                    Catch::Contains("bad.json:2:14: /vertices: expected an array"));
  Topology inline_ = readTopology(
      R"({"name": "x", "boxes": {"count": 3, "box": {"name": "in", "family": {"kind": "ring", "n": 2, "bw": 1}}}})",
      "t.json", {});
  CHECK(inline_.gpus().size() == 6);
  std::filesystem::remove_all(dir);
}

TEST_CASE("topologies load by catalog name or by path") {
  CHECK(loadTopology("dgx1").gpus().size() == 8);
  CHECK_THROWS_WITH(loadTopology("dgx7"), Catch::Contains("dgx7: no such file, and not a catalog topology"));
  auto dir = std::filesystem::temp_directory_path() / ("ccforge_topo_path_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "mine.json") << kTwoGpus;
  CHECK(loadTopology((dir / "mine.json").string()).name == "pair");
  std::filesystem::remove_all(dir);
}

TEST_CASE("gpu_relay is a boolean of the spec that says it, not inherited from boxes") {
  CHECK_FALSE(readTopology(kTwoGpus, "t.json", {}).gpuRelay);
  CHECK(readTopology(R"({"name": "x", "gpu_relay": true, "vertices": [{"name": "a"}]})", "t.json", {}).gpuRelay);
  CHECK(errorOf(R"({"name": "x", "gpu_relay": "yes", "vertices": [{"name": "a"}]})") ==
        "t.json:1:28: /gpu_relay: expected true or false");
  CHECK(loadTopology("mi250-1").gpuRelay);
  CHECK_FALSE(loadTopology("mi250-2").gpuRelay);
  CHECK(readTopology(R"({"name": "two", "gpu_relay": true, "boxes": {"count": 2, "box": "mi250-1"}})", "t.json", {})
            .gpuRelay);
}

// Issue 24's keys: what the machine is (sm, nvls, pxn, p2p, host_path), how its fabric is built
// (rails and Clos with a spine) and what calibrate fitted; each read where it is written, boxes
// inheriting the machine facts of their box spec.
TEST_CASE("machine facts: sm, nvls, pxn, p2p and host_path are read, checked and inherited by boxes") {
  const Topology h = loadTopology("h100-1");
  CHECK(h.sm == 90);
  CHECK(h.nvls);
  const Topology h2 = loadTopology("h100-2");
  CHECK(h2.sm == 90);  // from its box
  CHECK(h2.nvls);
  CHECK(h2.pxn);
  const Topology d = loadTopology("dgx1");
  REQUIRE(d.hostPath);
  CHECK(d.hostPath->bandwidthGBps == 16);  // "16/25" of 25 GB/s
  CHECK(d.hostPath->alphaUs == 1);
  CHECK(loadTopology("ndv2-1").hostPath);
  CHECK(readTopology(R"({"name": "x", "p2p": false, "vertices": [{"name": "a"}]})", "t.json", {}).gpuP2p == false);
  CHECK(readTopology(kTwoGpus, "t.json", {}).gpuP2p);
  CHECK_FALSE(readTopology(kTwoGpus, "t.json", {}).sm);
  CHECK(errorOf(R"({"name": "x", "sm": 5, "vertices": [{"name": "a"}]})") == "t.json:1:21: /sm: must be 10 to 999");
  CHECK(errorOf(R"({"name": "x", "nvls": 1, "vertices": [{"name": "a"}]})") ==
        "t.json:1:23: /nvls: expected true or false");
  CHECK_THAT(errorOf(R"({"name": "x", "host_path": {"alpha_us": 1}, "vertices": [{"name": "a"}]})"),
             Catch::Contains("/host_path: missing key 'bw'"));
  CHECK_THAT(errorOf(R"({"name": "x", "host_path": {"bw": 1, "lat": 2}, "vertices": [{"name": "a"}]})"),
             Catch::Contains("/host_path/lat: unknown key 'lat'"));
  // An outer spec's own value wins over its box's.
  const Topology noNvls = readTopology(R"({"name": "two", "nvls": false, "boxes": {"count": 2, "box": "h100-1",
    "nics": {"bw": 1}, "network": {"kind": "switch", "bw": 1}}})",
                                       "t.json", {});
  CHECK_FALSE(noNvls.nvls);
  CHECK(noNvls.sm == 90);
}

TEST_CASE("fabrics: rails and Clos with a spine, the spine's keys where a spine exists") {
  const Topology a = loadTopology("a100-2");
  REQUIRE(a.findVertex("spine"));
  REQUIRE(a.findVertex("ib7"));
  const auto up = a.findLink(*a.findVertex("ib7"), *a.findVertex("spine"));
  REQUIRE(up);
  CHECK(a.links()[static_cast<size_t>(*up)].bandwidthGBps == 50);  // 2 NICs of 25 GB/s on rail 7, oversubscription 1
  const std::string clos = R"({"name": "c", "boxes": {"count": 4, "box": "a100-1", "nics": {"bw": 1},
    "network": {"kind": "clos", "boxes_per_leaf": 2, "bw": 1, "spine_oversubscription": 4, "spine_alpha_us": 0.5}}})";
  const Topology c = readTopology(clos, "t.json", {});
  REQUIRE(c.findVertex("leaf1"));
  CHECK_FALSE(c.findVertex("leaf2"));
  // 5 boxes, 2 per leaf: ceil(5 / 2) = 3 leaves, the last with one box.
  const Topology odd = readTopology(R"({"name": "c", "boxes": {"count": 5, "box": "a100-1", "nics": {"bw": 1},
    "network": {"kind": "clos", "boxes_per_leaf": 2, "bw": 1, "spine_oversubscription": 4}}})",
                                    "t.json", {});
  REQUIRE(odd.findVertex("leaf2"));
  CHECK_FALSE(odd.findVertex("leaf3"));
  CHECK_THAT(errorOf(R"({"name": "c", "boxes": {"count": 2, "box": "a100-1", "nics": {"bw": 1},
    "network": {"kind": "switch", "bw": 1, "spine_oversubscription": 2}}})"),
             Catch::Contains("/boxes/network/spine_oversubscription: one switch has no spine"));
  CHECK_THAT(errorOf(R"({"name": "c", "boxes": {"count": 2, "box": "a100-1", "nics": {"bw": 1},
    "network": {"kind": "rails", "switches": 8, "bw": 1, "spine_alpha_us": 2}}})"),
             Catch::Contains("/boxes/network/spine_alpha_us: give spine_oversubscription for a spine"));
  CHECK_THAT(errorOf(R"({"name": "c", "boxes": {"count": 2, "box": "a100-1", "nics": {"bw": 1},
    "network": {"kind": "clos", "bw": 1}}})"),
             Catch::Contains("clos: give spine_oversubscription"));
  CHECK_THAT(errorOf(R"({"name": "c", "boxes": {"count": 2, "box": "a100-1", "nics": {"bw": 1},
    "network": {"kind": "torus", "bw": 1}}})"),
             Catch::Contains("/boxes/network/kind: network kind must be switch, rails or clos"));
}

TEST_CASE("calibration: the fitted values within their ranges, unknown keys named") {
  const Topology t = readTopology(R"({"name": "x", "vertices": [{"name": "a"}],
    "calibration": {"launch_us": 7.5, "network_efficiency": 0.9, "error_large": 0.1, "logs": ["ar.log"]}})",
                                  "t.json", {});
  REQUIRE(t.calibration);
  CHECK(t.calibration->launchUs == 7.5);
  CHECK(t.calibration->networkEfficiency == 0.9);
  CHECK(t.calibration->errorLarge == 0.1);
  CHECK_FALSE(t.calibration->nvlinkEfficiency);
  CHECK(t.calibration->logs == std::vector<std::string>{"ar.log"});
  CHECK_THAT(errorOf(R"({"name": "x", "vertices": [{"name": "a"}], "calibration": {"launch": 7}})"),
             Catch::Contains("/calibration/launch: unknown key 'launch'; expected one of: logs, "));
  CHECK_THAT(errorOf(R"({"name": "x", "vertices": [{"name": "a"}], "calibration": {"launch_us": -1}})"),
             Catch::Contains("/calibration/launch_us: launch_us must be"));
  CHECK_THAT(errorOf(R"({"name": "x", "vertices": [{"name": "a"}], "calibration": {"launch_us": "7"}})"),
             Catch::Contains("/calibration/launch_us: expected a number"));
}
