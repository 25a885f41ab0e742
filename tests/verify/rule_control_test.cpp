// Suppression comments, baselines and the configuration file (docs/verify.md, "Rule control"):
// which findings each one suppresses, and the located errors for files that are wrong. Expected
// outcomes are stated per case.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <string>

#include "base/input_error.hpp"
#include "ir/reader.hpp"
#include "verify/baseline.hpp"
#include "verify/findings.hpp"
#include "verify/rule_config.hpp"

using namespace ccforge;
using namespace ccforge::verify;

namespace {

std::filesystem::path scratchDir(const std::string& name) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("ccforge_rule_control_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

void writeText(const std::filesystem::path& path, const std::string& text) { std::ofstream(path) << text; }

std::string inputErrorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const base::InputError& e) {
    return e.diagnostic();
  }
  return "no error";
}

}  // namespace

TEST_CASE("rule control: a suppression comment covers its rule or group, and the verdict leaves the finding out") {
  const std::vector<ir::RuleSuppression> comments{{"deadlock", "known, tracked in #12", {3, 1}}};
  Options options;
  Findings f("x.xml", options, &comments);
  f.error(Check::Deadlock, "deadlock.cycle", {}, "a cycle");
  CHECK(f.hasErrors(Check::Deadlock));  // the check failed; the verdict leaves the finding out
  f.error(Check::Races, "race.write-read", {}, "not covered");
  FileReport report;
  f.moveInto(report);
  REQUIRE(report.violations.size() == 2);
  REQUIRE(report.violations[0].suppression);
  CHECK(report.violations[0].suppression->kind == SuppressionKind::InSource);
  CHECK(report.violations[0].suppression->justification == "known, tracked in #12");
  CHECK(!report.violations[1].suppression);
  CHECK(report.errorCount() == 1);
  CHECK(report.suppressedCount() == 1);
}

TEST_CASE("rule control: a baseline accepts as many findings as it lists, matched by file, rule and message") {
  const std::filesystem::path dir = scratchDir("baseline");
  FileReport old;
  old.file = "x.xml";
  old.violations.push_back(Violation{
      Check::Selection, Severity::Error, "selection.dead", "never selected", "x.xml", {4, 1}, {}, {}, std::nullopt});
  writeBaseline(dir / "b.json", {old});
  Options options;
  options.baseline = std::make_shared<const Baseline>(Baseline::read(dir / "b.json"));
  Findings f("x.xml", options);
  f.error(Check::Selection, "selection.dead", {9, 1}, "never selected");  // another line: still matched
  f.error(Check::Selection, "selection.dead", {9, 1}, "never selected");  // a second one: new
  FileReport report;
  f.moveInto(report);
  REQUIRE(report.violations.size() == 2);
  CHECK(report.errorCount() == 1);
  CHECK(report.suppressedCount() == 1);
  REQUIRE(report.violations[0].suppression);
  CHECK(report.violations[0].suppression->kind == SuppressionKind::External);
  CHECK(!report.violations[1].suppression);
}

TEST_CASE("rule control: a file that is not a baseline is a located error") {
  const std::filesystem::path dir = scratchDir("bad_baseline");
  writeText(
      dir / "b.json",
      "{\"format\": \"ccforge-baseline/1\",\n \"findings\": [{\"file\": \"x.xml\", \"rule\": 3, \"message\": \"m\"}]}");
  CHECK(inputErrorOf([&] { Baseline::read(dir / "b.json"); }) ==
        (dir / "b.json").string() +
            ":2:15: error: a finding is an object with \"file\", \"rule\" and \"message\" (no string \"rule\")");
}

TEST_CASE("rule control: the configuration file is found upward and read with its baseline beside it") {
  const std::filesystem::path dir = scratchDir("config");
  std::filesystem::create_directories(dir / "algos" / "a100");
  writeText(dir / ".ccforge.json", R"({"verify": {"disable": ["selection.dead"], "warn": ["limits"],
  "baseline": "ci/baseline.json"}})");
  const auto found = findRuleConfig(dir / "algos" / "a100" / "ring.xml");
  REQUIRE(found);
  CHECK(*found == dir / ".ccforge.json");
  const RuleConfig config = readRuleConfig(*found);
  CHECK(config.overrides.actionFor("selection.dead") == RuleAction::Disable);
  CHECK(config.overrides.actionFor("limits.channels") == RuleAction::Warn);
  CHECK(config.baseline == dir / "ci" / "baseline.json");
  // The command line wins over the file.
  RuleOverrides merged = config.overrides;
  RuleOverrides commandLine;
  commandLine.set("selection.dead", RuleAction::Error);
  merged.overrideWith(commandLine);
  CHECK(merged.actionFor("selection.dead") == RuleAction::Error);
}

TEST_CASE("rule control: a configuration naming no rule, or an unknown key, is a located error") {
  const std::filesystem::path dir = scratchDir("bad_config");
  writeText(dir / "c.json", "{\"verify\": {\n  \"disable\": [\"deadlok\"]}}");
  CHECK(inputErrorOf([&] { readRuleConfig(dir / "c.json"); }) ==
        (dir / "c.json").string() +
            ":2:15: error: --disable deadlok: no rule or group of rules has this name (docs/verify.md, \"Rule "
            "reference\")");
  writeText(dir / "c.json", "{\"verify\": {\"ignore\": []}}");
  CHECK(inputErrorOf([&] { readRuleConfig(dir / "c.json"); }) ==
        (dir / "c.json").string() + ":1:23: error: unknown key \"ignore\" (known: disable, warn, error, baseline)");
}

TEST_CASE("rule control: the reader takes suppression comments anywhere and refuses one without a reason") {
  const std::string head =
      "<algo name=\"a\" proto=\"Simple\" nchannels=\"1\" nchunksperloop=\"1\" ngpus=\"1\" "
      "coll=\"allreduce\" inplace=\"1\">\n";
  const ir::ReadResult ok =
      ir::readAlgorithm("<!-- ccforge-disable selection.dead: only 4 KiB calls -->\n" + head + "</algo>\n", "a.xml");
  REQUIRE(ok.algorithm.suppressions.size() == 1);
  CHECK(ok.algorithm.suppressions[0].rule == "selection.dead");
  CHECK(ok.algorithm.suppressions[0].reason == "only 4 KiB calls");
  CHECK(ok.algorithm.suppressions[0].where.line == 1);
  CHECK(inputErrorOf([&] {
          ir::readAlgorithm(head + "<!-- ccforge-disable deadlock -->\n</algo>\n", "a.xml");
        }).starts_with("a.xml:2:"));
}
