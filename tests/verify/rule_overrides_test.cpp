// --disable/--warn/--error: which findings a rule override drops or re-grades, and which patterns
// it refuses. Expected outcomes are stated per case.
#include <catch2/catch.hpp>

#include <stdexcept>

#include "verify/findings.hpp"
#include "verify/rule_overrides.hpp"

using namespace ccforge::verify;

TEST_CASE("rule overrides: an exact id wins over its group") {
  RuleOverrides o;
  o.set("selection", RuleAction::Disable);
  o.set("selection.ambiguous", RuleAction::Warn);
  CHECK(o.actionFor("selection.ambiguous") == RuleAction::Warn);
  CHECK(o.actionFor("selection.shadowed") == RuleAction::Disable);
  CHECK(!o.actionFor("race.write-read"));
  CHECK(!o.actionFor("selectionx.y"));
}

TEST_CASE("rule overrides: unknown names and contradictions are refused") {
  RuleOverrides o;
  CHECK_THROWS_AS(o.set("selectio", RuleAction::Disable), std::invalid_argument);
  CHECK_THROWS_AS(o.set("race.write", RuleAction::Warn), std::invalid_argument);  // neither an id nor a group
  o.set("race", RuleAction::Warn);
  CHECK_NOTHROW(o.set("race", RuleAction::Warn));
  CHECK_THROWS_AS(o.set("race", RuleAction::Error), std::invalid_argument);
}

TEST_CASE("rule overrides: findings are dropped, downgraded and upgraded") {
  RuleOverrides o;
  o.set("race.write-read", RuleAction::Disable);
  o.set("selection.ambiguous", RuleAction::Warn);
  o.set("selection.dead", RuleAction::Error);
  Findings f("x.xml", 20, &o);
  f.error(Check::Races, "race.write-read", {}, "dropped");
  f.error(Check::Selection, "selection.ambiguous", {}, "now a warning");
  CHECK(!f.hasErrors());
  f.warning(Check::Selection, "selection.dead", {}, "now an error");
  CHECK(f.hasErrors(Check::Selection));
  CHECK(!f.hasErrors(Check::Races));
  FileReport report;
  f.moveInto(report);
  REQUIRE(report.violations.size() == 2);
  CHECK(report.violations[0].rule == "selection.ambiguous");
  CHECK(report.violations[0].severity == Severity::Warning);
  CHECK(report.violations[1].severity == Severity::Error);
  REQUIRE(report.notes.size() == 1);
  CHECK(report.notes[0] ==
        "1 finding of rule race.write-read not reported (disabled by --disable or the configuration file)");
}

TEST_CASE("rule overrides: without overrides a finding keeps its severity") {
  Findings f("x.xml", 20);
  f.error(Check::Races, "race.write-read", {}, "kept");
  CHECK(f.hasErrors(Check::Races));
}
