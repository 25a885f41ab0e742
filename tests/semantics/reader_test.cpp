#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "ir/input_error.hpp"
#include "ir/reader.hpp"

using namespace ccforge;
using namespace ccforge::ir;

namespace {

const std::string kHeader =
    R"(<algo name="t" proto="Simple" nchannels="1" nchunksperloop="2" ngpus="2" coll="allreduce" inplace="1">)";

std::string program(const std::string& stepAttributes) {
  return kHeader + "\n  <gpu id=\"0\" i_chunks=\"2\" o_chunks=\"0\" s_chunks=\"0\">\n    <tb id=\"0\" send=\"1\" recv=\"-1\" chan=\"0\">\n      <step " +
         stepAttributes + "/>\n    </tb>\n  </gpu>\n</algo>\n";
}
const std::string kGoodStep =
    R"(s="0" type="s" srcbuf="i" srcoff="0" dstbuf="i" dstoff="0" cnt="1" depid="-1" deps="-1" hasdep="0")";

// The error a text produces, or "" when it reads.
std::string errorOf(const std::string& text) {
  try {
    readAlgorithm(text, "t.xml");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a well-formed program reads into the model") {
  auto r = readAlgorithm(program(kGoodStep), "t.xml");
  const Algorithm& a = r.algorithm;
  CHECK(a.coll == CollectiveKind::AllReduce);
  CHECK(a.headerStyle() == HeaderStyle::Legacy);
  CHECK(a.servesInPlace());
  CHECK_FALSE(a.servesOutOfPlace());
  REQUIRE(a.gpus.size() == 1);
  const Step& s = a.gpus[0].threadBlocks[0].steps[0];
  CHECK(s.type == OpType::Send);
  CHECK(s.cnt == 1);
  CHECK(s.where.line == 4);
  CHECK(s.where.column == 7);
  CHECK(r.runtimeParserIssues.empty());
}

TEST_CASE("both header generations and spellings are accepted") {
  std::string legacy = program(kGoodStep);
  std::string modern = legacy;
  modern.replace(modern.find("inplace=\"1\""), 11, R"(inplace="1" outofplace="0" minBytes="0" maxBytes="1048576")");
  auto m = readAlgorithm(modern, "m.xml").algorithm;
  CHECK(m.headerStyle() == HeaderStyle::Executor);
  CHECK(m.maxBytes == 1048576);
  std::string rs = legacy;
  rs.replace(rs.find("allreduce"), 9, "reduce_scatter");
  CHECK(readAlgorithm(rs, "r.xml").algorithm.coll == CollectiveKind::ReduceScatter);
}

TEST_CASE("errors carry file:line:column and say what is wrong") {
  CHECK(errorOf(program(std::string(kGoodStep) + R"( cnt="2")")) ==
        "t.xml:4:112: malformed XML: duplicate attribute");
  std::string typo = kGoodStep;
  typo.replace(typo.find("hasdep"), 6, "hasdeps");
  CHECK_THAT(errorOf(program(typo)), Catch::StartsWith("t.xml:4:") && Catch::Contains("unknown attribute 'hasdeps'"));
  std::string missing = kGoodStep.substr(0, kGoodStep.find(" hasdep"));
  CHECK_THAT(errorOf(program(missing)), Catch::Contains("missing required attribute 'hasdep' on <step>"));
}

TEST_CASE("numbers must be canonical decimal integers in range") {
  auto with = [](const std::string& cnt) {
    std::string s = kGoodStep;
    s.replace(s.find("cnt=\"1\""), 7, "cnt=\"" + cnt + "\"");
    return errorOf(program(s));
  };
  CHECK_THAT(with("abc"), Catch::Contains("must be a decimal integer, got \"abc\""));
  CHECK_THAT(with("010"), Catch::Contains("leading zero"));
  CHECK_THAT(with("0x10"), Catch::Contains("leading zero"));
  CHECK_THAT(with("99999999999"), Catch::Contains("out of range"));
  CHECK_THAT(with("-99999999999"), Catch::Contains("out of range"));
  CHECK_THAT(with(""), Catch::Contains("decimal integer"));
  CHECK_THAT(with(" 1"), Catch::Contains("decimal integer"));
  CHECK(with("-1").empty());
}

TEST_CASE("unknown elements, text and stray content are rejected") {
  std::string extra = program(kGoodStep);
  extra.insert(extra.find("    </tb>"), "      <stpe s=\"1\"/>\n");
  CHECK_THAT(errorOf(extra), Catch::Contains("t.xml:5:7: unexpected element <stpe>"));
  std::string text = program(kGoodStep);
  text.insert(text.find("  <gpu"), "hello\n");
  CHECK_THAT(errorOf(text), Catch::Contains("unexpected text"));
  CHECK_THAT(errorOf(kHeader + "</algo>\n" + kHeader + "</algo>"), Catch::Contains("t.xml:2:1: malformed XML: junk after document element"));
  CHECK_THAT(errorOf(""), Catch::Contains("no <algo> element"));
  CHECK_THAT(errorOf("<notalgo/>"), Catch::Contains("unexpected element <notalgo>"));
}

TEST_CASE("malformed, truncated and binary input give located errors") {
  std::string full = program(kGoodStep);
  CHECK_THAT(errorOf(full.substr(0, full.size() / 2)), Catch::StartsWith("t.xml:") && Catch::Contains("malformed XML"));
  CHECK_THAT(errorOf(std::string("<algo\0 x", 8)), Catch::Contains("binary data"));
  CHECK_THAT(errorOf("<algo name=\"x></algo>"), Catch::Contains("malformed XML"));
}

TEST_CASE("deep nesting is rejected without exhausting the stack") {
  std::string deep;
  for (int i = 0; i < 200000; ++i) deep += "<x>";
  CHECK_THAT(errorOf(kHeader + deep), Catch::Contains("unexpected element <x> in <algo>"));
  std::string closed = kHeader;
  for (int i = 0; i < 200000; ++i) closed += "<gpu>";
  for (int i = 0; i < 200000; ++i) closed += "</gpu>";
  closed += "</algo>";
  CHECK_THAT(errorOf(closed), Catch::Contains("missing required attribute 'id' on <gpu>"));
}

TEST_CASE("text the runtime's own parser would misread is reported, not refused") {
  std::string decl = "<?xml version=\"1.0\"?>\n" + program(kGoodStep);
  auto r = readAlgorithm(decl, "t.xml");
  REQUIRE(r.runtimeParserIssues.size() == 1);
  CHECK_THAT(r.runtimeParserIssues[0].message, Catch::Contains("XML declaration"));
  CHECK(r.runtimeParserIssues[0].where.line == 1);

  std::string quotes = program(kGoodStep);
  quotes.replace(quotes.find("cnt=\"1\""), 7, "cnt='1'");
  auto q = readAlgorithm(quotes, "t.xml");
  REQUIRE_FALSE(q.runtimeParserIssues.empty());
  CHECK_THAT(q.runtimeParserIssues[0].message, Catch::Contains("single-quoted"));

  std::string broken = program(kGoodStep);
  broken.replace(broken.find(" cnt="), 1, "\n        ");
  auto b = readAlgorithm(broken, "t.xml");
  REQUIRE_FALSE(b.runtimeParserIssues.empty());
  CHECK_THAT(b.runtimeParserIssues[0].message, Catch::Contains("line break inside a tag"));
}

TEST_CASE("every msccl-tools sample reads") {
  namespace fs = std::filesystem;
  int files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(fs::path(CCFORGE_FIXTURES) / "msccl-tools")) {
    if (entry.path().extension() != ".xml") continue;
    INFO(entry.path());
    auto r = readAlgorithmFile(entry.path());
    CHECK(r.algorithm.stepCount() > 0);
    CHECK(r.runtimeParserIssues.empty());
    ++files;
  }
  CHECK(files == 8);
}
