#include <catch2/catch.hpp>

#include <cstdint>
#include <filesystem>
#include <string>
#include <tuple>

#include "base/input_error.hpp"
#include "ir/reader.hpp"
#include "semantics/runtime_profile.hpp"

using namespace ccforge;
using namespace ccforge::ir;

namespace {

const std::string kHeader =
    R"(<algo name="t" proto="Simple" nchannels="1" nchunksperloop="2" ngpus="2" coll="allreduce" inplace="1">)";

std::string program(const std::string& stepAttributes) {
  return kHeader +
         "\n  <gpu id=\"0\" i_chunks=\"2\" o_chunks=\"0\" s_chunks=\"0\">\n    <tb id=\"0\" send=\"1\" recv=\"-1\" "
         "chan=\"0\">\n      <step " +
         stepAttributes + "/>\n    </tb>\n  </gpu>\n</algo>\n";
}
const std::string kGoodStep =
    R"(s="0" type="s" srcbuf="i" srcoff="0" dstbuf="i" dstoff="0" cnt="1" depid="-1" deps="-1" hasdep="0")";

// The error a text produces, or "" when it reads.
std::string errorOf(const std::string& text) {
  try {
    readAlgorithm(text, "t.xml");
  } catch (const base::InputError& e) {
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
  CHECK(errorOf(program(std::string(kGoodStep) + R"( cnt="2")")) == "t.xml:4:112: malformed XML: duplicate attribute");
  std::string typo = kGoodStep;
  typo.replace(typo.find("hasdep"), 6, "hasdeps");
  CHECK_THAT(errorOf(program(typo)), Catch::StartsWith("t.xml:4:") && Catch::Contains("unknown attribute 'hasdeps'"));
  std::string missing = kGoodStep.substr(0, kGoodStep.find(" hasdep"));
  CHECK_THAT(errorOf(program(missing)), Catch::Contains("missing required attribute 'hasdep' on <step>"));
}

TEST_CASE("numbers: what the runtime's strtol reads whole is read as it reads it, the rest is refused") {
  auto program_with = [](const std::string& cnt) {
    std::string s = kGoodStep;
    s.replace(s.find("cnt=\"1\""), 7, "cnt=\"" + cnt + "\"");
    return program(s);
  };
  auto with = [&](const std::string& cnt) { return errorOf(program_with(cnt)); };
  CHECK_THAT(with("abc"), Catch::Contains("must be an integer, got \"abc\""));
  CHECK_THAT(with("08"), Catch::Contains("must be an integer"));  // strtol stops at the 8
  CHECK_THAT(with("5k"), Catch::Contains("must be an integer"));
  CHECK_THAT(with("99999999999"), Catch::Contains("out of range"));
  CHECK_THAT(with("-99999999999"), Catch::Contains("out of range"));
  CHECK_THAT(with("0x80000000"), Catch::Contains("out of range"));
  CHECK_THAT(with(""), Catch::Contains("must be an integer"));
  CHECK_THAT(with(" 1"), Catch::Contains("must be an integer"));
  CHECK(with("-1").empty());
  // Spellings strtol(..., 0) consumes whole: the runtime's value, and a warning that says it.
  for (const auto& [text, value, why] :
       {std::tuple{"010", 8, "reads it as 8 (octal)"}, std::tuple{"0x10", 16, "reads it as 16 (hexadecimal)"},
        std::tuple{"+1", 1, "reads it as 1; write 1"}}) {
    INFO(text);
    const ReadResult r = readAlgorithm(program_with(text), "t.xml");
    CHECK(r.algorithm.gpus[0].threadBlocks[0].steps[0].cnt == value);
    REQUIRE(r.runtimeParserIssues.size() == 1);
    CHECK(r.runtimeParserIssues[0].warning);
    CHECK_THAT(r.runtimeParserIssues[0].message, Catch::Contains(why));
  }
  CHECK(readAlgorithm(program_with("1"), "t.xml").runtimeParserIssues.empty());
}

TEST_CASE("minBytes and maxBytes past 2^63 - 1 read as the runtimes' strtoll reads them") {
  // Both runtimes read the window with strtoll, which saturates: every decimal above
  // 9223372036854775807 (2^63 - 1) is 9223372036854775807, every one below -2^63 is -2^63.
  auto window = [](const std::string& lo, const std::string& hi) {
    std::string s = program(kGoodStep);
    s.replace(s.find("inplace=\"1\""), 11,
              "inplace=\"1\" outofplace=\"0\" minBytes=\"" + lo + "\" maxBytes=\"" + hi + "\"");
    return readAlgorithm(s, "w.xml").algorithm;
  };
  const Algorithm top = window("0", "18446744073709551615");  // 2^64 - 1
  CHECK(top.maxBytes == 9223372036854775807);
  CHECK(top.minBytes == 0);
  CHECK(window("0", "9223372036854775808").maxBytes == 9223372036854775807);  // 2^63
  CHECK(window("0", "9223372036854775807").maxBytes == 9223372036854775807);
  CHECK(window("0", "9223372036854775806").maxBytes == 9223372036854775806);
  CHECK(window("18446744073709551615", "0").minBytes == 9223372036854775807);
  CHECK(window("0", "99999999999999999999999999").maxBytes == 9223372036854775807);
  CHECK(window("-99999999999999999999999999", "0").minBytes == INT64_MIN);
  CHECK(window("-1", "0").minBytes == -1);
  // Other spellings as strtoll(..., 0) reads them: hex, octal (saturating too), and no 8 in octal.
  CHECK(window("0", "0x10").maxBytes == 16);
  CHECK(window("0", "0xffffffffffffffffff").maxBytes == 9223372036854775807);
  CHECK(window("0", "0777").maxBytes == 511);
  std::string octal = program(kGoodStep);
  octal.replace(octal.find("inplace=\"1\""), 11,
                R"(inplace="1" outofplace="0" minBytes="018446744073709551615" maxBytes="0")");
  CHECK_THAT(errorOf(octal), Catch::Contains("minBytes") && Catch::Contains("must be an integer"));
}

TEST_CASE("unknown elements are skipped as the runtime skips them; text and stray content are rejected") {
  // msccl_parser.cc:203-206: an element no handler names is skipped with everything inside it.
  std::string extra = program(kGoodStep);
  extra.insert(extra.find("    </tb>"), "      <stpe s=\"1\"><step s=\"9\"/></stpe>\n");
  const ReadResult skipped = readAlgorithm(extra, "t.xml");
  CHECK(skipped.algorithm.gpus[0].threadBlocks[0].steps.size() == 1);
  REQUIRE(skipped.runtimeParserIssues.size() == 1);
  CHECK(skipped.runtimeParserIssues[0].warning);
  CHECK(skipped.runtimeParserIssues[0].where.line == 5);
  CHECK_THAT(skipped.runtimeParserIssues[0].message,
             Catch::Contains("the runtime skips the unknown element <stpe> in <tb> and everything inside it"));
  std::string inStep = program(kGoodStep);
  inStep.replace(inStep.find("hasdep=\"0\"/>"), 12, "hasdep=\"0\"><x/></step>");
  CHECK_THAT(errorOf(inStep), Catch::Contains("unexpected content inside <step>"));
  std::string text = program(kGoodStep);
  text.insert(text.find("  <gpu"), "hello\n");
  CHECK_THAT(errorOf(text), Catch::Contains("unexpected text"));
  CHECK_THAT(errorOf(kHeader + "</algo>\n" + kHeader + "</algo>"),
             Catch::Contains("t.xml:2:1: malformed XML: junk after document element"));
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
  CHECK_THAT(errorOf(kHeader + deep), Catch::Contains("malformed XML"));  // skipped, then never closed
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

namespace {

std::vector<RuntimeParserIssue> issuesOf(const std::string& text) {
  return readAlgorithm(text, "t.xml", semantics::executorProfile().lexical).runtimeParserIssues;
}

}  // namespace

TEST_CASE("what the runtime's lexer fails on between tags is reported where it is") {
  const std::string good = program(kGoodStep);
  CHECK(issuesOf(good).empty());
  CHECK(issuesOf("\n \r\n" + good + "\n  \n").empty());  // spaces and line breaks are skipped

  auto bom = issuesOf("\xEF\xBB\xBF" + good);
  REQUIRE(bom.size() == 1);
  CHECK_THAT(bom[0].message, Catch::Contains("byte-order mark"));
  CHECK(bom[0].where.line == 1);

  std::string tabs = good;
  tabs.replace(tabs.find("  <gpu"), 2, "\t");
  tabs.replace(tabs.find("    <tb"), 4, "\t\t");
  auto tab = issuesOf(tabs);
  REQUIRE(tab.size() == 1);  // the first one of the file
  CHECK_THAT(tab[0].message, Catch::Contains("a tab between tags"));
  CHECK(tab[0].where.line == 2);
  CHECK(tab[0].where.column == 1);
  CHECK(issuesOf("\t" + good).size() == 1);    // before the root element
  CHECK(issuesOf(good + "\t\n").size() == 1);  // after it

  std::string reference = good;
  reference.replace(reference.find("\n  <gpu"), 1, "&#10;");
  auto ref = issuesOf(reference);
  REQUIRE(ref.size() == 1);
  CHECK_THAT(ref[0].message, Catch::Contains("character or entity reference between tags"));

  std::string endTag = good;
  endTag.replace(endTag.find("</tb>"), 5, "</tb\n>");
  auto end = issuesOf(endTag);
  REQUIRE(end.size() == 1);
  CHECK_THAT(end[0].message, Catch::Contains("whitespace before '>' in the end tag"));
  CHECK(end[0].where.line == 5);
  CHECK(end[0].where.column == 9);
}

TEST_CASE("a comment's first word is read as an element name") {
  const std::string good = program(kGoodStep);
  CHECK(issuesOf("<!-- a=b -->\n" + good).empty());
  CHECK(issuesOf("<!--a/b=c-->\n" + good).empty());  // '/' ends the word
  auto equals = issuesOf("<!--a=b -->\n" + good);
  REQUIRE(equals.size() == 1);
  CHECK_THAT(equals[0].message, Catch::Contains("contains '='"));
  // "!--" and the word must fit 253 bytes; without a space the word runs on into the closing "--".
  CHECK(issuesOf("<!--" + std::string(250, 'w') + " -->\n" + good).empty());
  CHECK(issuesOf("<!--" + std::string(251, 'w') + " -->\n" + good).size() == 1);
  CHECK(issuesOf("<!--" + std::string(248, 'w') + "-->\n" + good).empty());
  CHECK(issuesOf("<!--" + std::string(249, 'w') + "-->\n" + good).size() == 1);
  // Without the runtime's buffer sizes only the size-independent rules apply.
  CHECK(readAlgorithm("<!--" + std::string(300, 'w') + "-->\n" + good, "t.xml").runtimeParserIssues.empty());
}

TEST_CASE("attribute slots and value lengths follow the runtime's lexer") {
  // Every space in a tag opens an attribute slot: 16 are kept, later ones dropped.
  std::string sixteen = program(kGoodStep);
  sixteen.replace(sixteen.find("<step "), 6, "<step" + std::string(7, ' '));
  CHECK(issuesOf(sixteen).empty());
  std::string seventeen = program(kGoodStep);
  seventeen.replace(seventeen.find("<step "), 6, "<step" + std::string(8, ' '));
  auto dropped = issuesOf(seventeen);
  REQUIRE(dropped.size() == 1);
  CHECK_THAT(dropped[0].message, Catch::Contains("attribute 'hasdep' is in attribute slot 17"));
  CHECK(dropped[0].where.line == 4);
  CHECK(dropped[0].where.column == 7 + 5 + 8 + std::string(kGoodStep).find("hasdep"));
  // Empty slots at the end of a tag drop nothing.
  std::string trailing = program(kGoodStep + std::string(20, ' '));
  CHECK(issuesOf(trailing).empty());

  std::string name = program(kGoodStep);
  name.replace(name.find("name=\"t\""), 8, "name=\"" + std::string(255, 'n') + "\"");
  CHECK(issuesOf(name).empty());
  name.replace(name.find("name=\""), 6, "name=\"n");
  auto overrun = issuesOf(name);
  REQUIRE(overrun.size() == 1);
  CHECK_THAT(overrun[0].message, Catch::Contains("attribute 'name' has a 256-byte value"));
  CHECK(overrun[0].where.column == 7);
  CHECK(readAlgorithm(name, "t.xml").runtimeParserIssues.empty());
}

TEST_CASE("every msccl-tools sample reads") {
  namespace fs = std::filesystem;
  int files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(fs::path(CCFORGE_FIXTURES) / "msccl-tools")) {
    if (entry.path().extension() != ".xml") continue;
    INFO(entry.path());
    auto r = readAlgorithmFile(entry.path(), base::kDefaultMaxInputBytes, semantics::executorProfile().lexical);
    CHECK(r.algorithm.stepCount() > 0);
    CHECK(r.runtimeParserIssues.empty());
    ++files;
  }
  CHECK(files == 8);
}
