// Reading back what `verify` writes: a JSON report's findings and an SMT witness file come back
// as they were written; anything else is refused as malformed input, located at the file.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "base/input_error.hpp"
#include "verify/report_reader.hpp"
#include "verify/report_writers.hpp"
#include "verify/verifier.hpp"

using namespace ccforge;

namespace {

std::filesystem::path scratch(const std::string& name) {
  return std::filesystem::temp_directory_path() / ("ccforge_report_reader_" + name);
}

std::filesystem::path written(const std::string& name, const std::string& text) {
  const std::filesystem::path path = scratch(name);
  std::ofstream(path) << text;
  return path;
}

verify::StepRef step(int32_t rank, int32_t tb, int32_t s, int32_t tile, uint32_t line, const std::string& role) {
  verify::StepRef r;
  r.rank = rank;
  r.tb = tb;
  r.step = s;
  r.tile = tile;
  r.where = {line, 7};
  r.role = role;
  return r;
}

void checkSameStep(const verify::StepRef& a, const verify::StepRef& b) {
  CHECK(a.rank == b.rank);
  CHECK(a.tb == b.tb);
  CHECK(a.step == b.step);
  CHECK(a.tile == b.tile);
  CHECK(a.where.line == b.where.line);
  CHECK(a.where.column == b.where.column);
  CHECK(a.role == b.role);
}

}  // namespace

TEST_CASE("report reader: the findings of a JSON report come back as written") {
  verify::FileReport r;
  r.file = "a.xml";
  r.verdict = verify::Verdict::Violation;
  r.profile = "msccl-legacy";
  r.notes = {"profile msccl-legacy from the header"};
  verify::Violation cycle;
  cycle.check = verify::Check::Deadlock;
  cycle.rule = "deadlock.cycle";
  cycle.message = "two blocks wait for each other";
  cycle.file = "a.xml";
  cycle.where = {3, 5};
  cycle.steps = {step(0, 0, 1, 0, 4, "waits"), step(1, 0, 1, -1, 9, "waits too")};
  cycle.evidence = {"slots=1"};
  verify::Violation warning;
  warning.check = verify::Check::Format;
  warning.severity = verify::Severity::Warning;
  warning.rule = "format.name-length";
  warning.message = "long name";
  warning.file = "a.xml";
  r.violations = {cycle, warning};
  verify::FileReport unreadable;
  unreadable.file = "b.xml";
  unreadable.verdict = verify::Verdict::Malformed;
  unreadable.error = "b.xml: no such file";

  const std::filesystem::path path = scratch("report.json");
  {
    std::ofstream out(path);
    verify::writeJson(out, {r, unreadable}, {"msccl-legacy", 10});
  }
  const verify::ReportFile back = verify::readReportFile(path);
  CHECK_FALSE(back.witness);
  REQUIRE(back.reports.size() == 2);
  const verify::FileReport& a = back.reports[0];
  CHECK(a.file == "a.xml");
  CHECK(a.verdict == verify::Verdict::Violation);
  CHECK(a.profile == "msccl-legacy");
  CHECK(a.notes == r.notes);
  REQUIRE(a.violations.size() == 2);
  CHECK(a.violations[0].check == verify::Check::Deadlock);
  CHECK(a.violations[0].severity == verify::Severity::Error);
  CHECK(a.violations[0].rule == "deadlock.cycle");
  CHECK(a.violations[0].message == cycle.message);
  CHECK(a.violations[0].where.line == 3);
  CHECK(a.violations[0].evidence == cycle.evidence);
  REQUIRE(a.violations[0].steps.size() == 2);
  checkSameStep(a.violations[0].steps[0], cycle.steps[0]);
  checkSameStep(a.violations[0].steps[1], cycle.steps[1]);
  CHECK(a.violations[1].severity == verify::Severity::Warning);
  CHECK(a.violations[1].check == verify::Check::Format);
  CHECK(back.reports[1].verdict == verify::Verdict::Malformed);
  CHECK(back.reports[1].error == "b.xml: no such file");
  CHECK(back.reports[1].profile.empty());
  std::filesystem::remove(path);
}

TEST_CASE("report reader: a real verification's deadlock cycle comes back step for step") {
  const std::string fixture = std::string(CCFORGE_FIXTURES) + "/verify/deadlock/receive_before_send.xml";
  const verify::FileReport r = verify::verifyFile(fixture, {});
  REQUIRE(r.verdict == verify::Verdict::Violation);
  const std::filesystem::path path = scratch("deadlock.json");
  {
    std::ofstream out(path);
    verify::writeJson(out, {r}, {"msccl-executor", 10});
  }
  const verify::ReportFile back = verify::readReportFile(path);
  REQUIRE(back.reports.size() == 1);
  REQUIRE(back.reports[0].violations.size() == r.violations.size());
  for (size_t i = 0; i < r.violations.size(); ++i) {
    CHECK(back.reports[0].violations[i].rule == r.violations[i].rule);
    REQUIRE(back.reports[0].violations[i].steps.size() == r.violations[i].steps.size());
    for (size_t k = 0; k < r.violations[i].steps.size(); ++k)
      checkSameStep(back.reports[0].violations[i].steps[k], r.violations[i].steps[k]);
  }
  std::filesystem::remove(path);
}

TEST_CASE("report reader: deadlock and data witnesses come back as written") {
  verify::Witness deadlock;
  deadlock.kind = "deadlock";
  deadlock.query = "deadlock with 1 slot";
  deadlock.tiles = 2;
  deadlock.maxAllowedCount = 71;
  deadlock.slots = 1;
  deadlock.schedule = {{0, 0, 0, 0, 3, "", -1}, {1, 0, 0, 1, 0, "", -1}};
  deadlock.blocked = {step(0, 0, 1, 0, 5, "'r' waits")};
  deadlock.replay = "the simulator blocks there too";
  verify::Witness data;
  data.kind = "wrong-output";
  data.query = "postcondition out-of-place";
  data.callForm = "out-of-place";
  data.slots = 0;
  data.schedule = {{1, 2, 3, 0, -1, "write", 4}};
  data.outcome = {"rank 0 o[0] holds i[1], should hold i[0]"};
  data.replay = "same output";
  for (const verify::Witness& w : {deadlock, data}) {
    const std::filesystem::path path = scratch("witness.json");
    {
      std::ofstream out(path);
      verify::writeWitness(out, "a.xml", w);
    }
    const verify::ReportFile back = verify::readReportFile(path);
    CHECK(back.reports.empty());
    REQUIRE(back.witness);
    const verify::Witness& b = *back.witness;
    CHECK(b.kind == w.kind);
    CHECK(b.query == w.query);
    CHECK(b.tiles == w.tiles);
    CHECK(b.maxAllowedCount == w.maxAllowedCount);
    CHECK(b.slots == w.slots);
    CHECK(b.callForm == w.callForm);
    REQUIRE(b.schedule.size() == w.schedule.size());
    for (size_t i = 0; i < w.schedule.size(); ++i) {
      CHECK(b.schedule[i].rank == w.schedule[i].rank);
      CHECK(b.schedule[i].tb == w.schedule[i].tb);
      CHECK(b.schedule[i].step == w.schedule[i].step);
      CHECK(b.schedule[i].tile == w.schedule[i].tile);
      CHECK(b.schedule[i].unit == w.schedule[i].unit);
      CHECK(b.schedule[i].action == w.schedule[i].action);
      CHECK(b.schedule[i].chunk == w.schedule[i].chunk);
    }
    REQUIRE(b.blocked.size() == w.blocked.size());
    for (size_t i = 0; i < w.blocked.size(); ++i) checkSameStep(b.blocked[i], w.blocked[i]);
    CHECK(b.outcome == w.outcome);
    CHECK(b.replay == w.replay);
    std::filesystem::remove(path);
  }
}

TEST_CASE("report reader: what is not a report is refused, located at the file") {
  CHECK_THROWS_WITH(verify::readReportFile(scratch("missing.json")),
                    Catch::Contains("missing.json: cannot read the report"));
  CHECK_THROWS_AS(verify::readReportFile(written("text.json", "verified\n")), base::InputError);
  CHECK_THROWS_WITH(verify::readReportFile(written("text.json", "verified\n")), Catch::Contains("not a JSON report"));
  CHECK_THROWS_WITH(verify::readReportFile(written("other.json", R"({"tool": "other"})")),
                    Catch::Contains("other.json: neither a ccforge verify report nor an SMT witness"));
  const std::string unknownCheck =
      R"({"files": [{"file": "a.xml", "verdict": "violation", "error": null, "profile": null, "notes": [],
          "violations": [{"check": "style", "severity": "error", "rule": "x", "message": "m", "file": "a.xml",
                          "line": 0, "column": 0, "steps": [], "evidence": []}]}]})";
  CHECK_THROWS_WITH(verify::readReportFile(written("check.json", unknownCheck)),
                    Catch::Contains("unknown value \"style\""));
  for (const char* name : {"text.json", "other.json", "check.json"}) std::filesystem::remove(scratch(name));
}
