// The one diagnostic format (src/base/diagnostic.hpp): FILE:LINE:COLUMN: SEVERITY: MESSAGE [RULE],
// as compilers print it, one line each; and the errors of input files use it.
#include <catch2/catch.hpp>

#include <regex>
#include <string>

#include "base/diagnostic.hpp"
#include "base/input_error.hpp"
#include "semantics/collective_spec.hpp"

using namespace ccforge;

namespace {

// The regular expression the issue gives for gcc-style problem matchers.
const std::regex kGccStyle(R"(^([^:]+):(\d+):(\d+): (error|warning|note): .*( \[[a-z0-9.-]+\])?$)");

}  // namespace

TEST_CASE("diagnostics read as FILE:LINE:COLUMN: SEVERITY: MESSAGE [RULE]") {
  CHECK(base::formatDiagnostic("f.xml", {9, 7}, base::DiagnosticLevel::Error, "cnt=72 exceeds 71", "limits.cnt") ==
        "f.xml:9:7: error: cnt=72 exceeds 71 [limits.cnt]");
  CHECK(base::formatDiagnostic("a/b.xml", {3, 1}, base::DiagnosticLevel::Warning, "w") == "a/b.xml:3:1: warning: w");
  CHECK(base::formatDiagnostic("a/b.xml", {12, 5}, base::DiagnosticLevel::Note, "rank 0 tb 1") ==
        "a/b.xml:12:5: note: rank 0 tb 1");
  // A finding about the file as a whole is at 1:1; a multi-line message stays on one line.
  CHECK(base::formatDiagnostic("d", {}, base::DiagnosticLevel::Error, "no such file") == "d:1:1: error: no such file");
  CHECK(base::formatDiagnostic("f", {2, 0}, base::DiagnosticLevel::Error, "one\ntwo\n", "x.y") ==
        "f:2:1: error: one; two [x.y]");
  for (const std::string& line :
       {base::formatDiagnostic("f.xml", {9, 7}, base::DiagnosticLevel::Error, "m", "limits.cnt"),
        base::formatDiagnostic("f.xml", {}, base::DiagnosticLevel::Note, "profile msccl-legacy from the header")})
    CHECK(std::regex_match(line, kGccStyle));
}

TEST_CASE("an input error prints as a located diagnostic") {
  const base::InputError e("spec.json", {4, 44}, "/links/0/bw: bandwidth must be positive, got 0");
  CHECK(e.diagnostic() == "spec.json:4:44: error: /links/0/bw: bandwidth must be positive, got 0");
  CHECK(std::string(e.what()) == "spec.json:4:44: /links/0/bw: bandwidth must be positive, got 0");
}

TEST_CASE("collective spec errors name the line and column of the value at fault") {
  const std::string text =
      "{\"name\": \"x\", \"ranks\": 2, \"input_chunks\": 1,\n"
      " \"output_chunks\": \"one\", \"postcondition\": []}\n";
  try {
    semantics::parseCollectiveSpec(text, "swap.json");
    FAIL("no InputError");
  } catch (const base::InputError& e) {
    CHECK(e.where().line == 2);
    CHECK(e.where().column == 19);  // the value "one"
    CHECK(e.diagnostic() == "swap.json:2:19: error: at /output_chunks: expected an integer");
  }
}
