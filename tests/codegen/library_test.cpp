// Every library algorithm compiles for several sizes and every protocol, and ccforge verify
// finds nothing wrong with the result (limits, connections, races, postcondition, deadlock).
#include <catch2/catch.hpp>

#include "compile_support.hpp"

using namespace ccforge;
using Settings = std::vector<std::string>;

namespace {

void compilesAndVerifies(const std::string& name, const std::vector<Settings>& sizes,
                         const std::string& profile = "msccl-executor") {
  for (ir::Protocol protocol : {ir::Protocol::Simple, ir::Protocol::LL, ir::Protocol::LL128})
    for (const Settings& settings : sizes) {
      std::string label = name;
      for (const std::string& s : settings) label += " " + s;
      INFO(label << " protocol " << static_cast<int>(protocol) << " profile " << profile);
      testing::compileVerified(name, settings, protocol, profile);
    }
}

}  // namespace

TEST_CASE("library: ring-allreduce") {
  compilesAndVerifies("ring-allreduce", {{"ranks=4"},
                                         {"ranks=8"},
                                         {"ranks=8", "channels=4", "instances=2"},
                                         {"ranks=4", "inplace=0"},
                                         {"ranks=8", "channels=4", "inplace=0"}});
}

TEST_CASE("library: hierarchical-allreduce") {
  compilesAndVerifies("hierarchical-allreduce", {{"nodes=2", "gpus=4"},
                                                 {"nodes=2", "gpus=8"},
                                                 {"nodes=2", "gpus=4", "instances=2"},
                                                 {"nodes=2", "gpus=4", "channels=1", "instances=1"},
                                                 {"nodes=3", "gpus=2"},
                                                 {"nodes=4", "gpus=2"}});
}

TEST_CASE("library: allpairs-allreduce") {
  compilesAndVerifies("allpairs-allreduce",
                      {{"ranks=4"}, {"ranks=8"}, {"ranks=4", "inplace=0"}, {"ranks=8", "inplace=0"}});
}

TEST_CASE("library: recursive-halving-doubling-allreduce") {
  compilesAndVerifies("recursive-halving-doubling-allreduce", {{"ranks=4"}, {"ranks=8"}});
}

TEST_CASE("library: ring-allgather") {
  compilesAndVerifies("ring-allgather",
                      {{"ranks=4"}, {"ranks=8", "channels=2"}, {"ranks=4", "inplace=0"}, {"ranks=8", "inplace=0"}});
}

TEST_CASE("library: allpairs-allgather") {
  compilesAndVerifies("allpairs-allgather", {{"ranks=4"}, {"ranks=8"}, {"ranks=8", "inplace=0"}});
}

TEST_CASE("library: recursive-doubling-allgather") {
  compilesAndVerifies("recursive-doubling-allgather", {{"ranks=4"}, {"ranks=8"}, {"ranks=8", "inplace=0"}});
}

TEST_CASE("library: ring-reducescatter") {
  compilesAndVerifies("ring-reducescatter", {{"ranks=4"}, {"ranks=8", "channels=2"}, {"ranks=8", "inplace=0"}});
}

TEST_CASE("library: allpairs-alltoall") {
  compilesAndVerifies("allpairs-alltoall", {{"ranks=4"}, {"ranks=8"}, {"ranks=8", "instances=2"}});
}

TEST_CASE("library: two-step-alltoall") {
  compilesAndVerifies("two-step-alltoall", {{"nodes=2", "gpus=2"}, {"nodes=2", "gpus=4"}, {"nodes=2", "gpus=8"}});
}

TEST_CASE("library: three-step-alltoall") {
  compilesAndVerifies("three-step-alltoall",
                      {{"nodes=2", "gpus=2"}, {"nodes=2", "gpus=4"}, {"nodes=2", "gpus=8"}, {"nodes=4", "gpus=2"}});
}

TEST_CASE("library: alltonext (custom collective, legacy runtime)") {
  compilesAndVerifies("alltonext", {{"nodes=2", "gpus=2"}, {"nodes=2", "gpus=4"}, {"nodes=2", "gpus=8"}},
                      "msccl-legacy");
}

TEST_CASE("library: binomial-broadcast") {
  compilesAndVerifies("binomial-broadcast",
                      {{"ranks=4"}, {"ranks=8", "root=3", "chunks=2"}, {"ranks=8", "root=5", "inplace=0"}});
}

TEST_CASE("library: binomial-reduce") {
  compilesAndVerifies("binomial-reduce",
                      {{"ranks=4"}, {"ranks=8", "root=3", "chunks=2"}, {"ranks=8", "root=5", "inplace=0"}});
}

TEST_CASE("library: every algorithm also compiles for the legacy runtime") {
  for (const algorithms::LibraryEntry& e : algorithms::library()) {
    INFO(e.name);
    testing::compileVerified(e.name, {}, std::nullopt, "msccl-legacy");
  }
}

TEST_CASE("library: parameters are checked before anything is built") {
  CHECK_THROWS_WITH(algorithms::instantiate("ring-allreduce", {"ranks=1"}), Catch::Contains("between 2 and"));
  CHECK_THROWS_WITH(
      algorithms::instantiate("ring-allreduce", {"rank=4"}),
      Catch::Contains("has no parameter 'rank' (it takes ranks, channels, instances, inplace, boxes, split)"));
  CHECK_THROWS_WITH(algorithms::instantiate("ring-allreduce", {"ranks=4x"}), Catch::Contains("needs an integer"));
  CHECK_THROWS_WITH(algorithms::instantiate("ring-allreduce", {"ranks=4", "ranks=8"}), Catch::Contains("given twice"));
  CHECK_THROWS_WITH(algorithms::instantiate("recursive-doubling-allgather", {"ranks=6"}),
                    Catch::Contains("power-of-two"));
  CHECK_THROWS_WITH(algorithms::instantiate("binomial-reduce", {"ranks=4", "root=4"}), Catch::Contains("root 4"));
  CHECK_THROWS_WITH(algorithms::instantiate("no-such-thing", {}), Catch::Contains("no algorithm 'no-such-thing'"));
}
