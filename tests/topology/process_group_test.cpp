#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>
#include <vector>

#include "topology/process_group.hpp"
#include "topology/routes.hpp"
#include "topology/spec_reader.hpp"

using namespace ccforge;
using namespace ccforge::topo;

namespace {

int32_t countKind(const Topology& t, VertexKind kind) {
  int32_t n = 0;
  for (const Vertex& v : t.vertices()) n += v.kind == kind;
  return n;
}

std::string gpuName(const Topology& t, int32_t rank) {
  return t.vertices()[static_cast<size_t>(t.gpus()[static_cast<size_t>(rank)])].name;
}

}  // namespace

TEST_CASE("process group: rank lists and strided groups") {
  CHECK(parseRankList("0,8,16") == std::vector<int32_t>{0, 8, 16});
  CHECK(parseRankList("8-11") == std::vector<int32_t>{8, 9, 10, 11});
  CHECK(parseRankList("0-1,4,6-7") == std::vector<int32_t>{0, 1, 4, 6, 7});
  CHECK_THROWS_WITH(parseRankList("3,1"), Catch::Contains("rank 1 comes after 3"));
  CHECK_THROWS_WITH(parseRankList("1,1"), Catch::Contains("rank 1 comes after 1"));
  CHECK_THROWS_WITH(parseRankList("5-2"), Catch::Contains("the range '5-2' runs down"));
  CHECK_THROWS_WITH(parseRankList("a"), Catch::Contains("'a' is not a rank"));
  CHECK_THROWS_WITH(parseRankList("1,"), Catch::Contains("'' is not a rank"));
  CHECK_THROWS_WITH(parseRankList("-3"), Catch::Contains("'' is not a rank"));
  CHECK_THROWS_WITH(parseRankList("0-99999"), Catch::Contains("more than 4096 ranks"));
  CHECK(stridedRanks(0, 8, 4) == std::vector<int32_t>{0, 8, 16, 24});
  CHECK(stridedRanks(3, 1, 2) == std::vector<int32_t>{3, 4});
  CHECK_THROWS_AS(stridedRanks(0, 0, 4), std::invalid_argument);
  CHECK_THROWS_AS(stridedRanks(0, 8, 0), std::invalid_argument);
  CHECK_THROWS_AS(stridedRanks(0, 1000, 1000), std::invalid_argument);
}

TEST_CASE("process group: tags name arithmetic runs, and lists by a checksum") {
  CHECK(processGroupTag({0, 8, 16}) == "r0s8n3");
  CHECK(processGroupTag({8, 9, 10, 11, 12, 13, 14, 15}) == "r8s1n8");
  const std::string a = processGroupTag({0, 1, 5});
  const std::string b = processGroupTag({0, 1, 6});
  CHECK(a.rfind("r0-", 0) == 0);
  CHECK(a.size() == 11);
  CHECK(a != b);
  CHECK(a == processGroupTag({0, 1, 5}));
}

TEST_CASE("process group: a data-parallel group keeps its GPUs' own NICs and rail") {
  const Topology machine = loadTopology("a100-8");  // 8 boxes of 8, rails ib0..ib7 and a spine
  const Topology dp = processGroupTopology(machine, stridedRanks(0, 8, 8));
  REQUIRE(dp.gpus().size() == 8);
  CHECK(dp.boxCount() == 8);
  for (int32_t r = 0; r < 8; ++r) {
    CHECK(gpuName(dp, r) == gpuName(machine, 8 * r));
    CHECK(dp.vertices()[static_cast<size_t>(dp.gpus()[static_cast<size_t>(r)])].box == r);
  }
  // Each GPU keeps its NIC; the NVSwitches, the other NICs, the other rails and the spine lie
  // between no two GPUs of the group.
  CHECK(countKind(dp, VertexKind::Nic) == 8);
  CHECK(countKind(dp, VertexKind::Switch) == 1);
  const auto route = routeBetween(dp, 0, 5);
  REQUIRE(route);
  CHECK(route->links.size() == 4);  // GPU, NIC, rail switch, NIC, GPU
  CHECK(route->linkClass == LinkClass::Network);
  CHECK(dp.name == machine.name + "-r0s8n8");
  CHECK(dp.sm == machine.sm);
  CHECK(dp.pxn == machine.pxn);
}

TEST_CASE("process group: a group inside one box sees that box alone") {
  const Topology machine = loadTopology("a100-8");
  const Topology tp = processGroupTopology(machine, parseRankList("16-23"));
  const Topology box = loadTopology("a100-1");
  REQUIRE(tp.gpus().size() == 8);
  CHECK(tp.boxCount() == 1);
  CHECK(gpuName(tp, 0) == gpuName(machine, 16));
  CHECK(countKind(tp, VertexKind::Nic) == 0);
  CHECK(countKind(tp, VertexKind::Switch) == countKind(box, VertexKind::Switch));
  CHECK(tp.links().size() == box.links().size());
}

TEST_CASE("process group: ranks the machine lacks and groups of one are refused") {
  const Topology machine = loadTopology("a100-2");
  CHECK_THROWS_WITH(processGroupTopology(machine, {0, 16}),
                    Catch::Contains("rank 16 of the group is not a rank of a100-2 (it has 16 GPUs, 0 to 15)"));
  CHECK_THROWS_WITH(processGroupTopology(machine, {3}), Catch::Contains("at least two ranks; 1 given"));
}
