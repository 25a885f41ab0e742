// Where slot back-pressure orders data: only on connections inside a box (docs/verify.md,
// "Connections across boxes").
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <sstream>

#include "verify/box_layout.hpp"
#include "verify/report_writers.hpp"
#include "verify/verifier.hpp"
#include "support/verify_support.hpp"

using namespace ccforge;

namespace {

verify::FileReport check(verify::BoxLayout boxes, int32_t slots = 2, verify::Engine engine = verify::Engine::Sim) {
  verify::Options o;
  o.boxes = std::move(boxes);
  o.slots = slots;
  o.engine = engine;
  return verify::verifyFile(test::fixture("verify/good/read_ordered_by_back_pressure_in_box.xml"), o);
}

}  // namespace

TEST_CASE("a box layout says which ranks share a box") {
  const verify::BoxLayout unknown;
  CHECK_FALSE(unknown.known());
  CHECK(unknown.sameBox(3, 3));
  CHECK_FALSE(unknown.sameBox(0, 1));
  CHECK(unknown.describe() == "unknown");
  CHECK(unknown.boxesOf(3) == std::vector<int32_t>{0, 1, 2});

  const verify::BoxLayout four = verify::BoxLayout::consecutive(4);
  CHECK(four.known());
  CHECK(four.sameBox(0, 3));
  CHECK_FALSE(four.sameBox(3, 4));
  CHECK(four.sameBox(4, 7));
  CHECK(four.describe() == "4 GPUs per box");
  CHECK(four.boxesOf(6) == std::vector<int32_t>{0, 0, 0, 0, 1, 1});
  CHECK(verify::BoxLayout::consecutive(1).describe() == "1 GPU per box");
  CHECK_THROWS_AS(verify::BoxLayout::consecutive(0), std::invalid_argument);

  const verify::BoxLayout one = verify::BoxLayout::oneBox();
  CHECK(one.sameBox(0, 4095));
  CHECK(one.describe() == "one box");

  // A machine's boxes need not be consecutive; ranks past its GPUs are alone.
  const verify::BoxLayout machine = verify::BoxLayout::ofRanks({0, 1, 0, 1}, "m");
  CHECK(machine.sameBox(0, 2));
  CHECK_FALSE(machine.sameBox(0, 1));
  CHECK_FALSE(machine.sameBox(4, 5));
  CHECK_FALSE(machine.sameBox(1, 4));
  CHECK(machine.describe() == "the boxes of m");
  CHECK(machine.boxesOf(6) == std::vector<int32_t>{0, 1, 0, 1, 2, 3});
}

TEST_CASE("back-pressure orders data inside a box and nowhere else") {
  // The read of rank 1's s[0] is ordered before its overwrite only by back-pressure on 0->1.
  for (verify::Engine engine : {verify::Engine::Sim, verify::Engine::Smt}) {
    INFO("engine " << (engine == verify::Engine::Sim ? "sim" : "smt"));
    const std::string rule = engine == verify::Engine::Sim ? "race.read-write" : "race.changes-result";
    const verify::FileReport inside = check(verify::BoxLayout::consecutive(2), 2, engine);
    CHECK(inside.verdict == verify::Verdict::Verified);
    CHECK_FALSE(test::hasRule(inside, rule));
    CHECK(test::hasRule(check(verify::BoxLayout::consecutive(1), 2, engine), rule));
    CHECK(test::hasRule(check(verify::BoxLayout{}, 2, engine), rule));
    CHECK(test::hasRule(check(verify::BoxLayout::ofRanks({0, 1}, "two boxes"), 2, engine), rule));
    CHECK(check(verify::BoxLayout::ofRanks({5, 5}, "one box"), 2, engine).verdict == verify::Verdict::Verified);
    // Inside a box, one more slot lets the overwrite start before the read.
    CHECK(test::hasRule(check(verify::BoxLayout::consecutive(2), 3, engine), rule));
  }
}

TEST_CASE("the report says how many connections cross boxes") {
  const verify::FileReport unknown = check(verify::BoxLayout{});
  REQUIRE(unknown.boxes);
  CHECK(unknown.boxes->layout == "unknown");
  CHECK_FALSE(unknown.boxes->layoutKnown);
  CHECK(unknown.boxes->connections == 3);
  CHECK(unknown.boxes->acrossBoxes == 3);

  const verify::FileReport inside = check(verify::BoxLayout::consecutive(2));
  REQUIRE(inside.boxes);
  CHECK(inside.boxes->layoutKnown);
  CHECK(inside.boxes->acrossBoxes == 0);

  std::ostringstream json, text;
  verify::writeJson(json, {unknown}, verify::RunInfo{"msccl-executor", 10});
  const nlohmann::json boxes = nlohmann::json::parse(json.str())["files"][0]["boxes"];
  CHECK(boxes == nlohmann::json{{"layout", "unknown"}, {"connections", 3}, {"across_boxes", 3}});
  verify::writeText(text, {unknown}, verify::RunInfo{"msccl-executor", 10});
  CHECK(text.str().find("boxes: unknown; 3 of 3 connections cross boxes or may") != std::string::npos);
  text.str("");
  verify::writeText(text, {inside}, verify::RunInfo{"msccl-executor", 0});
  CHECK(text.str().find("boxes:") == std::string::npos);  // nothing left out, nothing to say
}
