// Every hand-written fixture under tests/fixtures/verify gets the outcome it states about itself.
#include <catch2/catch.hpp>

#include <filesystem>
#include <regex>

#include "fixture_expectation.hpp"
#include "verify/verifier.hpp"

using namespace ccforge;
namespace fs = std::filesystem;

namespace {

std::vector<fs::path> fixtures() {
  std::vector<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(fs::path(CCFORGE_FIXTURES) / "verify"))
    if (e.path().extension() == ".xml") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

bool reports(const verify::FileReport& r, const std::string& rule) {
  for (const auto& v : r.violations)
    if (v.rule == rule) return true;
  return false;
}

void checkFixture(const fs::path& path) {
  INFO(path.string());
  test::FixtureExpectation expect = test::readExpectation(path);
  verify::FileReport r = verify::verifyFile(path, expect.options(path));
  std::string all;
  for (const auto& v : r.violations) all += v.rule + ": " + v.message + "\n";
  INFO("violations:\n" << all);
  CHECK(verify::verdictName(r.verdict) == expect.get("verdict"));
  for (const std::string& rule : expect.list("rules")) CHECK(reports(r, rule));
  for (const std::string& rule : expect.list("absent")) CHECK_FALSE(reports(r, rule));
  if (!expect.get("message").empty()) {
    std::regex pattern(expect.get("message"));
    CHECK(std::any_of(r.violations.begin(), r.violations.end(),
                      [&](const verify::Violation& v) { return std::regex_search(v.message, pattern); }));
  }
  if (!expect.get("evidence").empty()) {
    std::regex pattern(expect.get("evidence"));
    CHECK(std::any_of(r.violations.begin(), r.violations.end(), [&](const verify::Violation& v) {
      return std::any_of(v.evidence.begin(), v.evidence.end(),
                         [&](const std::string& e) { return std::regex_search(e, pattern); });
    }));
  }
  if (std::string m = expect.get("min-slots"); !m.empty()) {
    REQUIRE(r.deadlock.has_value());
    if (m == "none")
      CHECK_FALSE(r.deadlock->minimumSlots.has_value());
    else
      CHECK(r.deadlock->minimumSlots == std::stoi(m));
  }
  if (!expect.get("configurations").empty()) {
    REQUIRE(r.deadlock.has_value());
    CHECK(r.deadlock->configurations == expect.list("configurations"));
  }
  for (const std::string& check : expect.list("skipped"))
    CHECK(std::any_of(r.checks.begin(), r.checks.end(), [&](const verify::CheckOutcome& c) {
      return verify::checkName(c.check) == check && c.status == verify::CheckStatus::Skipped;
    }));
}

void checkFixturesIn(std::initializer_list<std::string_view> folders) {
  size_t checked = 0;
  for (const fs::path& p : fixtures())
    if (std::find(folders.begin(), folders.end(), p.parent_path().filename().string()) != folders.end()) {
      checkFixture(p);
      ++checked;
    }
  CHECK(checked > 0);
}

}  // namespace

TEST_CASE("the fixture corpus is there") { CHECK(fixtures().size() >= 55); }

TEST_CASE("format and limits fixtures") { checkFixturesIn({"format", "limits"}); }
TEST_CASE("send buffer fixtures: out of place, i is the caller's const sendbuff") { checkFixturesIn({"buffers"}); }
TEST_CASE("connection fixtures") { checkFixturesIn({"connections"}); }
TEST_CASE("race fixtures") { checkFixturesIn({"races"}); }
TEST_CASE("postcondition fixtures") { checkFixturesIn({"postcondition"}); }
TEST_CASE("deadlock fixtures") { checkFixturesIn({"deadlock"}); }
TEST_CASE("custom collective fixtures") { checkFixturesIn({"custom"}); }
TEST_CASE("suppression comments: accepted, still failing, or naming no rule") { checkFixturesIn({"suppressions"}); }
TEST_CASE("correct twins of every error class verify clean") { checkFixturesIn({"good"}); }
// Programs on which engines disagreed (found by tests/property): each now gets one verdict everywhere.
TEST_CASE("fixtures from engine disagreements") { checkFixturesIn({"differential"}); }
