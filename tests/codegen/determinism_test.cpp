// The same program compiles to byte-identical IR, run after run.
#include <catch2/catch.hpp>

#include "compile_support.hpp"
#include "ir/writer.hpp"

using namespace ccforge;

TEST_CASE("compiling the same program twice gives byte-identical IR") {
  const std::vector<std::pair<std::string, std::vector<std::string>>> programs{
      {"hierarchical-allreduce", {"nodes=2", "gpus=4"}},
      {"two-step-alltoall", {"nodes=4", "gpus=4"}},
      {"allpairs-allreduce", {"ranks=8", "instances=2"}},
      {"ring-allreduce", {"ranks=8", "channels=8", "instances=5"}},
  };
  for (const auto& [name, settings] : programs) {
    INFO(name);
    const std::string first = ir::toXml(codegen::compile(algorithms::instantiate(name, settings).program).algorithm);
    const std::string second = ir::toXml(codegen::compile(algorithms::instantiate(name, settings).program).algorithm);
    CHECK(first == second);
  }
}
