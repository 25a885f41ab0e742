// The simulator on the fixture corpus: every file the fixtures state `verify` calls VERIFIED must
// simulate to the end (the differential test's property, on the hand-written programs; it holds
// the second case of issue 11, <gpu> elements out of id order, which simulate used to refuse).
#include <catch2/catch.hpp>

#include <filesystem>

#include "../verify/fixture_expectation.hpp"
#include "engine_runs.hpp"
#include "ir/reader.hpp"

using namespace ccforge;
namespace fs = std::filesystem;

TEST_CASE("every verified fixture simulates in the configurations the verifier checks") {
  size_t simulated = 0;
  for (const auto& e : fs::recursive_directory_iterator(fs::path(CCFORGE_FIXTURES) / "verify")) {
    if (e.path().extension() != ".xml" || test::readExpectation(e.path()).get("verdict") != "verified") continue;
    INFO(e.path().string());
    const ir::Algorithm a = ir::readAlgorithmFile(e.path()).algorithm;
    CHECK_NOTHROW(property::simulate(a, {{1, 71}, {1, 1}, {2, 1}, {3, 1}}, simulated));
    ++simulated;
  }
  CHECK(simulated >= 20);
}
