// Directories, programmatic limits, report formats and determinism.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "ir/reader.hpp"
#include "verify/report_writers.hpp"
#include "verify/verifier.hpp"
#include "support/verify_support.hpp"

using namespace ccforge;
using verify::Verdict;

namespace {

bool has(const verify::FileReport& r, const std::string& rule) {
  return std::any_of(r.violations.begin(), r.violations.end(), [&](const auto& v) { return v.rule == rule; });
}

// One rank, out-of-place allreduce of `n` chunks, each copied by its own thread block; block k
// (k >= 1) depends on block k-1, so depids grow with the block count.
ir::Algorithm chainOfCopies(int n) {
  ir::Algorithm a;
  a.name = "chain";
  a.ngpus = 1;
  a.nchunksperloop = n;
  a.inplace = false;
  a.outofplace = true;
  a.minBytes = 0;
  a.maxBytes = 0;
  ir::Gpu g{0, n, n, 0, {}, {}, {}, {}};
  for (int k = 0; k < n; ++k) {
    ir::Step s;
    s.type = ir::OpType::Copy;
    s.srcbuf = ir::Buffer::Input;
    s.dstbuf = ir::Buffer::Output;
    s.srcoff = s.dstoff = k;
    s.cnt = 1;
    s.hasdep = true;
    if (k > 0) {
      s.depid = k - 1;
      s.deps = 0;
    }
    g.threadBlocks.push_back(ir::ThreadBlock{k, -1, -1, 0, {s}, {}});
  }
  a.gpus.push_back(g);
  return a;
}

}  // namespace

// More cases, with both selectors and the legacy runtime, in selection_test.cpp.
TEST_CASE("a directory is checked the way the runtime loads it") {
  auto shadowed =
      verify::verifyPaths({test::fixture(std::string("verify-dirs/") + "shadowed").string()}, verify::Options{});
  REQUIRE(shadowed.size() == 2);
  CHECK(shadowed[0].verdict == Verdict::Verified);
  CHECK(shadowed[1].verdict == Verdict::Violation);
  CHECK(has(shadowed[1], "selection.shadowed"));

  auto disjoint = verify::verifyPaths({test::fixture(std::string("verify-dirs/") + "disjoint_windows").string()},
                                      verify::Options{});
  REQUIRE(disjoint.size() == 2);
  CHECK(verify::combinedVerdict(disjoint) == Verdict::Verified);

  auto overlap = verify::verifyPaths({test::fixture(std::string("verify-dirs/") + "overlapping_windows").string()},
                                     verify::Options{});
  REQUIRE(overlap.size() == 2);
  CHECK(has(overlap[1], "selection.ambiguous"));
  CHECK(overlap[1].violations.back().message.find("from 1 MiB to 2 MiB") != std::string::npos);
}

TEST_CASE("without a profile, each file is checked against its header's and a directory against its runtime's") {
  const std::filesystem::path d = std::filesystem::temp_directory_path() / "ccforge_profile_from_header";
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  const std::string legacy =
      std::string(CCFORGE_FIXTURES) + "/msccl-tools/valid/allreduce_ring_a100_n4_ch1_i1_LL128.xml";
  for (int i = 0; i < 5; ++i) std::filesystem::copy_file(legacy, d / ("legacy" + std::to_string(i) + ".xml"));
  verify::Options fromHeader;
  fromHeader.profileFromHeader = true;
  // Five legacy files: msccl-legacy loads at most 4 from a directory.
  auto five = verify::verifyPaths({d.string()}, fromHeader);
  REQUIRE(five.size() == 5);
  CHECK(five[0].profile == "msccl-legacy");
  CHECK(has(five[4], "selection.too-many-files"));
  CHECK_FALSE(has(five[4], "format.executor-header"));
  // One executor file among them: the directory is msccl-executor's (1024 files), each legacy file
  // is still checked as a legacy file.
  std::filesystem::copy_file(std::string(CCFORGE_FIXTURES) + "/verify/good/allreduce_pairs_n2.xml",
                             d / "z_executor.xml");
  auto six = verify::verifyPaths({d.string()}, fromHeader);
  REQUIRE(six.size() == 6);
  CHECK(six[5].profile == "msccl-executor");
  CHECK(six[0].profile == "msccl-legacy");
  for (const auto& r : six) CHECK_FALSE(has(r, "selection.too-many-files"));
  CHECK(verify::commonProfile(six) == "mixed");
  CHECK(verify::commonProfile(five) == "msccl-legacy");
  // An explicit profile is kept for every file.
  auto executor = verify::verifyPaths({d.string()}, verify::Options{});
  CHECK(executor[0].profile == "msccl-executor");
  CHECK(has(executor[0], "format.executor-header"));
  std::filesystem::remove_all(d);
}

// Both runtimes store dependentBid as int8_t (msccl_struct.h; microsoft/msccl src/include/msccl.h).
TEST_CASE("depid above 127 wraps in the executor and in the legacy runtime") {
  ir::Algorithm a = chainOfCopies(130);
  verify::Options executor;
  executor.maxCoResidentThreadBlocks = 1024;
  auto r = verify::verifyAlgorithm(a, "chain", executor);
  CHECK(has(r, "limits.depid-int8"));
  verify::Options legacy;
  legacy.profile = semantics::legacyProfile();
  a.minBytes.reset();
  a.maxBytes.reset();
  a.outofplace.reset();
  legacy.maxCoResidentThreadBlocks = 216;
  auto l = verify::verifyAlgorithm(a, "chain", legacy);
  CHECK(has(l, "limits.depid-int8"));
  CHECK_FALSE(has(verify::verifyAlgorithm(chainOfCopies(128), "chain", executor), "limits.depid-int8"));
}

TEST_CASE("the executor's co-residency default is one block per A100 SM") {
  auto r = verify::verifyAlgorithm(chainOfCopies(109), "chain", verify::Options{});
  CHECK(has(r, "limits.co-residency"));
  CHECK_FALSE(has(verify::verifyAlgorithm(chainOfCopies(108), "chain", verify::Options{}), "limits.co-residency"));
}

TEST_CASE("a failing file never stops the others") {
  std::string good = std::string(CCFORGE_FIXTURES) + "/verify/good/allreduce_pairs_n2.xml";
  auto reports = verify::verifyPaths(
      {"/nonexistent/x.xml", good, test::fixture(std::string("verify-dirs/") + "shadowed").string()},
      verify::Options{});
  REQUIRE(reports.size() == 4);
  CHECK(reports[0].verdict == Verdict::Malformed);
  CHECK(reports[0].error.find("no such file") != std::string::npos);
  CHECK(reports[1].verdict == Verdict::Verified);
  CHECK(verify::combinedVerdict(reports) == Verdict::Malformed);
}

TEST_CASE("JSON and SARIF reports carry the findings and are deterministic") {
  std::string file = std::string(CCFORGE_FIXTURES) + "/verify/deadlock/receive_before_send.xml";
  auto reports = verify::verifyPaths({file}, verify::Options{});
  verify::RunInfo run{"msccl-executor", 10};
  std::ostringstream json1, json2, sarif;
  verify::writeJson(json1, reports, run);
  verify::writeJson(json2, verify::verifyPaths({file}, verify::Options{}), run);
  CHECK(json1.str() == json2.str());
  auto j = nlohmann::json::parse(json1.str());
  CHECK(j["verdict"] == "violation");
  CHECK(j["exit_code"] == 10);
  auto& f = j["files"][0];
  CHECK(f["deadlock"]["minimum_slots"].is_null());
  bool cycle = false;
  for (auto& v : f["violations"])
    if (v["rule"] == "deadlock.cycle") {
      cycle = true;
      CHECK(v["steps"].size() == 2);
      CHECK(v["steps"][0]["rank"] == 0);
      CHECK(v["steps"][0]["tile"] == 0);
      CHECK(v["line"].get<int>() > 0);
    }
  CHECK(cycle);

  verify::writeSarif(sarif, reports, run);
  auto s = nlohmann::json::parse(sarif.str());
  CHECK(s["version"] == "2.1.0");
  auto& results = s["runs"][0]["results"];
  REQUIRE(results.size() >= 1);
  bool flows = false;
  for (auto& res : results)
    if (res["ruleId"] == "deadlock.cycle") {
      flows = true;
      CHECK(res["level"] == "error");
      CHECK(res["codeFlows"][0]["threadFlows"].size() == 2);  // one per thread block in the cycle
    }
  CHECK(flows);
}

TEST_CASE("text reports name the rule, the location and the verdict") {
  std::string file = std::string(CCFORGE_FIXTURES) + "/verify/races/write_read_unordered.xml";
  std::ostringstream out;
  verify::writeText(out, verify::verifyPaths({file}, verify::Options{}), {"msccl-executor", 10});
  // The compilers' format: FILE:LINE:COLUMN: error: MESSAGE [RULE], then notes at the steps.
  auto anyLine = [&](const std::string& pattern) {
    std::istringstream lines(out.str());
    const std::regex re(pattern);
    for (std::string line; std::getline(lines, line);)
      if (std::regex_match(line, re)) return true;
    return false;
  };
  CHECK(
      anyLine(".*write_read_unordered\\.xml:13:7: error: out-of-place: rank 0 s\\[0\\] is accessed .* "
              "\\[race\\.write-read\\]"));
  CHECK(anyLine(".*write_read_unordered\\.xml:9:[0-9]+: note: rank 0 tb 0 step 0: 'cpy' .*"));
  CHECK(anyLine("verdict: VIOLATION .*"));
}

// What GitHub code scanning needs from a SARIF file (docs/verify.md, "SARIF"): rules with a full
// description, help and a helpUri into docs/verify.md's rule reference under the project URL; the
// tool's informationUri; a region on every result, the unreadable file's included; artifact
// locations relative to %SRCROOT%, never absolute paths.
TEST_CASE("SARIF reports carry rule help, regions and relative artifact locations") {
  namespace fs = std::filesystem;
  const std::string root = std::string(CCFORGE_SOURCE_DIR);
  const std::string race = root + "/tests/fixtures/verify/races/write_read_unordered.xml";
  const std::string malformed = root + "/tests/fixtures/malformed/truncated.xml";
  auto reports = verify::verifyPaths({race, malformed}, verify::Options{});
  std::ostringstream out;
  verify::RunInfo run{"msccl-executor", 2};
  run.sourceRoot = root;
  verify::writeSarif(out, reports, run);
  const nlohmann::json s = nlohmann::json::parse(out.str());
  const nlohmann::json& r = s["runs"][0];
  const std::string project = "https://github.com/ccforge/ccforge";
  CHECK(r["tool"]["driver"]["informationUri"] == project);
  CHECK(r["tool"]["driver"]["version"] == "0.1.0");
  REQUIRE(r["tool"]["driver"]["rules"].size() == 2);
  for (const nlohmann::json& rule : r["tool"]["driver"]["rules"]) {
    const std::string id = rule["id"];
    INFO(id);
    CHECK(!rule["fullDescription"]["text"].get<std::string>().empty());
    CHECK(!rule["help"]["text"].get<std::string>().empty());
    std::string anchor = id;
    std::replace(anchor.begin(), anchor.end(), '.', '-');
    CHECK(rule["helpUri"] == project + "/blob/main/docs/verify.md#rule-" + anchor);
  }
  CHECK(r["originalUriBaseIds"]["%SRCROOT%"]["uri"] == "file://" + root + "/");
  REQUIRE(r["results"].size() >= 2);
  bool sawMalformed = false;
  for (const nlohmann::json& res : r["results"]) {
    const nlohmann::json& loc = res["locations"][0]["physicalLocation"];
    const std::string uri = loc["artifactLocation"]["uri"];
    INFO(uri);
    CHECK(loc["artifactLocation"]["uriBaseId"] == "%SRCROOT%");
    CHECK(uri.front() != '/');
    CHECK(uri.find(':') == std::string::npos);  // no scheme, no drive
    CHECK(loc["region"]["startLine"].get<int>() >= 1);
    CHECK(loc["region"]["startColumn"].get<int>() >= 1);
    if (res["ruleId"] == "input.malformed") {
      sawMalformed = true;
      CHECK(uri == "tests/fixtures/malformed/truncated.xml");
      CHECK(res["message"]["text"].get<std::string>().find("malformed XML") == 0);
    } else {
      CHECK(uri == "tests/fixtures/verify/races/write_read_unordered.xml");
    }
    for (const nlohmann::json& flow : res.value("codeFlows", nlohmann::json::array()))
      for (const nlohmann::json& thread : flow["threadFlows"])
        for (const nlohmann::json& step : thread["locations"])
          CHECK(step["location"]["physicalLocation"]["artifactLocation"]["uri"] == uri);
  }
  CHECK(sawMalformed);

  // A file outside the source root is reached with "../", still relative.
  std::ostringstream outside;
  run.sourceRoot = root + "/docs";
  verify::writeSarif(outside, reports, run);
  const nlohmann::json o = nlohmann::json::parse(outside.str());
  CHECK(o["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] ==
        "../tests/fixtures/verify/races/write_read_unordered.xml");
}
