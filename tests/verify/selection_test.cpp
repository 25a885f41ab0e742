// `verify DIR`: selection over a directory as the executor's internal scheduler (path order) and
// the msccl-scheduler plugin (readdir order) perform it, and as the legacy runtime does for
// MSCCL_XML_FILES. Each fixture directory under tests/fixtures/verify-dirs and its expected
// outcome:
//   served_counts_differ/  a_chunks8 (0..unbounded, 8 chunks) and b_chunks2_upto_1m (0..1 MiB, 2 chunks):
//                          b's window lies inside a's, but b alone takes counts 2 and 4; not shadowed,
//                          ambiguous for counts 8..1 MiB (path order gives them to a).
//   dead_48_chunks/        b_chunks48: 48 chunks per loop divide no power-of-two count, but count 48
//                          (192 bytes of a 4-byte type) is a call: not dead; a_chunks2 (unbounded, in
//                          place, 2 chunks) accepts every count b does, so b is shadowed under path
//                          order and ambiguous under readdir order; a_chunks2 verified.
//   internal_only/         a 3-rank ring allgather (3 chunks per loop): the internal scheduler tests
//                          count*3, which 3 divides; the plugin tests count, which 3 divides for
//                          counts 3, 6, ...: alive under both.
//   shadowed/              two identical headers: only the plugin can pick b (the internal scheduler
//                          gives all its calls to a): shadowed, and ambiguous only under readdir order.
//   stray_file/            README.md next to an algorithm: a stray file (the executor reads it as one).
//   fused_first/           a fused program (coll="fused-allreduce") before an allreduce: the internal
//                          scheduler stops at it and never loads b_pairs; the plugin reads on.
//   overlapping_windows/   0..2 MiB and 1 MiB..unbounded: ambiguous for 1..2 MiB.
//   disjoint_windows/      0..1 MiB and 1 MiB+1..unbounded: verified.
#include <catch2/catch.hpp>
#include <unistd.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "verify/report_writers.hpp"
#include "verify/verifier.hpp"
#include "support/temp_dir.hpp"
#include "support/verify_support.hpp"

using namespace ccforge;
using verify::Verdict;
namespace fs = std::filesystem;

namespace {

const verify::Violation* find(const verify::FileReport& r, const std::string& rule) {
  for (const verify::Violation& v : r.violations)
    if (v.rule == rule) return &v;
  return nullptr;
}

const verify::SelectorUse& use(const verify::FileReport& r, const std::string& selector) {
  for (const verify::SelectorUse& u : r.selection)
    if (u.selector == selector) return u;
  FAIL("no selection entry for " << selector << " in " << r.file);
  throw std::logic_error("unreachable");
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string slurp(const std::string& file) {
  std::ifstream in(file);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

TEST_CASE("a file whose window lies inside an earlier one is not shadowed when it serves other counts") {
  auto r = verify::verifyPaths({test::fixture(std::string("verify-dirs/") + "served_counts_differ").string()}, {});
  REQUIRE(r.size() == 2);
  CHECK(r[0].verdict == Verdict::Verified);
  CHECK(find(r[1], "selection.shadowed") == nullptr);
  const verify::Violation* ambiguous = find(r[1], "selection.ambiguous");
  REQUIRE(ambiguous);
  CHECK(contains(ambiguous->message, "from count 8 to 1 MiB"));
  CHECK(contains(ambiguous->message, "path order gives them to " +
                                         test::fixture(std::string("verify-dirs/") + "served_counts_differ").string() +
                                         "/a_chunks8.xml"));
  // Under path order b runs counts 2 and 4 (8 chunks per loop refuse them), for every element size.
  const verify::SelectorUse& internal = use(r[1], "internal");
  REQUIRE(internal.selected.size() == 4);
  for (const verify::CallRange& c : internal.selected) {
    CHECK(c.countMin == 2);
    CHECK(c.countMax == 4);
    CHECK(c.bytesMin == 2 * static_cast<uint64_t>(c.typeSize));
  }
}

TEST_CASE("a file with 48 chunks per loop is not dead: count 48 is a call, which an earlier file takes") {
  auto r = verify::verifyPaths({test::fixture(std::string("verify-dirs/") + "dead_48_chunks").string()}, {});
  REQUIRE(r.size() == 2);
  CHECK(r[0].verdict == Verdict::Verified);
  CHECK(r[1].verdict == Verdict::Violation);
  CHECK(find(r[1], "selection.dead") == nullptr);
  const verify::Violation* shadowed = find(r[1], "selection.shadowed");
  REQUIRE(shadowed);
  CHECK(contains(shadowed->message, "e.g. an in-place call of count 48 with a 4-byte type (192 bytes)"));
  const verify::Violation* ambiguous = find(r[1], "selection.ambiguous");
  REQUIRE(ambiguous);
  CHECK(contains(ambiguous->message, "under the msccl-scheduler plugin both accept"));
  // b accepts, for each element size, the smallest multiple of 48 (its window is unbounded).
  const verify::SelectorUse& internal = use(r[1], "internal");
  REQUIRE(internal.accepts.size() == 4);
  CHECK(internal.accepts[0].typeSize == 1);
  CHECK(internal.accepts[0].countMin == 48);
  CHECK(internal.selected.empty());
}

TEST_CASE("a 3-rank allgather with 3 chunks per loop is alive under both schedulers") {
  auto r = verify::verifyPaths({test::fixture(std::string("verify-dirs/") + "internal_only").string()}, {});
  REQUIRE(r.size() == 1);
  CHECK(r[0].verdict == Verdict::Verified);
  CHECK(find(r[0], "selection.dead") == nullptr);
  // The internal scheduler runs every considered in-place call: counts 1.. for 3 ranks.
  const verify::SelectorUse& internal = use(r[0], "internal");
  REQUIRE(internal.selected.size() == 4);
  CHECK(internal.selected[0].callForm == "in-place");
  CHECK(internal.selected[0].countMin == 1);
  CHECK(internal.selected[0].bytesMin == 3);
  // The plugin: count % 3 == 0, so count 3 (9 bytes of a 1-byte type, 36 of a 4-byte one) first.
  const verify::SelectorUse& external = use(r[0], "external");
  REQUIRE_FALSE(external.selected.empty());
  CHECK(external.selected[0].countMin == 3);
  CHECK(external.selected[0].bytesMin == 9);
}

TEST_CASE("selection.dead is a warning, only for a file no count of any type or form selects") {
  test::TempDir d("selection_dead");
  const std::string base =
      slurp(test::fixture(std::string("verify-dirs/") + "dead_48_chunks").string() + "/b_chunks48.xml");
  auto withHeader = [&](const std::string& from, const std::string& to) {
    std::string text = base;
    text.replace(text.find(from), from.size(), to);
    return text;
  };
  // 48 chunks of at least 1 byte: 48 bytes at least; a window of 1..47 bytes holds none.
  std::ofstream(d.path / "a_window_too_small.xml") << withHeader("maxBytes=\"0\"", "maxBytes=\"47\"");
  auto dead = verify::verifyPaths({d.path.string()}, {});
  REQUIRE(dead.size() == 1);
  const verify::Violation* v = find(dead[0], "selection.dead");
  REQUIRE(v);
  CHECK(v->severity == verify::Severity::Warning);
  CHECK(contains(v->message, "every call whose count nchunksperloop=48 divides is outside its window 0..47 bytes"));
  CHECK(dead[0].verdict == Verdict::Verified);
  // 48 bytes: count 48 of a 1-byte type fits.
  std::filesystem::remove(d.path / "a_window_too_small.xml");
  std::ofstream(d.path / "b_window_48.xml") << withHeader("maxBytes=\"0\"", "maxBytes=\"48\"");
  auto alive = verify::verifyPaths({d.path.string()}, {});
  REQUIRE(alive.size() == 1);
  CHECK(find(alive[0], "selection.dead") == nullptr);
  CHECK(alive[0].verdict == Verdict::Verified);
  // minBytes past every real call (2^40 bytes > 256 GiB), maxBytes 0: only the plugin's bfloat16
  // and fp8 calls (size -1) select it; the internal scheduler never does.
  std::filesystem::remove(d.path / "b_window_48.xml");
  std::ofstream(d.path / "c_huge.xml") << withHeader("minBytes=\"0\"", "minBytes=\"1099511627776\"");
  auto minusOne = verify::verifyPaths({d.path.string()}, {});
  REQUIRE(minusOne.size() == 1);
  const verify::Violation* internalOnly = find(minusOne[0], "selection.dead");
  REQUIRE(internalOnly);
  CHECK(contains(internalOnly->message, "under the internal scheduler:"));
  CHECK_FALSE(contains(internalOnly->message, "msccl-scheduler plugin"));
}

TEST_CASE("a file only the plugin can pick is shadowed, and ambiguous only under readdir order") {
  auto r = verify::verifyPaths({test::fixture(std::string("verify-dirs/") + "shadowed").string()}, {});
  REQUIRE(r.size() == 2);
  CHECK(r[0].verdict == Verdict::Verified);
  const verify::Violation* shadowed = find(r[1], "selection.shadowed");
  REQUIRE(shadowed);
  CHECK(contains(shadowed->message, "internal scheduler"));
  CHECK(contains(shadowed->message, "a_pairs.xml first"));
  const verify::Violation* ambiguous = find(r[1], "selection.ambiguous");
  REQUIRE(ambiguous);
  CHECK(contains(ambiguous->message, "under the msccl-scheduler plugin both accept"));
  CHECK(contains(ambiguous->message, "readdir order, which is unspecified"));
  CHECK_FALSE(contains(ambiguous->message, "internal"));
  CHECK(use(r[1], "internal").selected.empty());
  CHECK_FALSE(use(r[1], "external").accepts.empty());
  // Neither file is certain to run under readdir order.
  CHECK(use(r[0], "external").selected.empty());
}

TEST_CASE("a file that is not an algorithm is a stray file the executor still reads") {
  auto r = verify::verifyPaths({test::fixture(std::string("verify-dirs/") + "stray_file").string()}, {});
  REQUIRE(r.size() == 2);  // path order: README.md before a_pairs.xml
  CHECK(r[0].file == test::fixture(std::string("verify-dirs/") + "stray_file").string() + "/README.md");
  CHECK(r[0].verdict == Verdict::Violation);
  const verify::Violation* stray = find(r[0], "selection.stray-file");
  REQUIRE(stray);
  CHECK(stray->severity == verify::Severity::Error);
  CHECK(contains(stray->message, "it starts with \"# Algorithms for\""));
  CHECK(contains(stray->message, "never loads the 1 entry after it"));
  CHECK(r[1].verdict == Verdict::Verified);
  // The legacy runtime reads only what MSCCL_XML_FILES names and skips what it cannot parse.
  auto l =
      verify::verifyPaths({test::fixture(std::string("verify-dirs/") + "stray_file").string()}, test::legacyOptions());
  REQUIRE(l.size() == 2);
  REQUIRE(find(l[0], "selection.stray-file"));
  CHECK(find(l[0], "selection.stray-file")->severity == verify::Severity::Warning);
}

TEST_CASE("a file the executor's header reader refuses stops the internal scheduler's loading") {
  const std::string dir = test::fixture(std::string("verify-dirs/") + "fused_first").string();
  auto r = verify::verifyPaths({dir}, {});
  REQUIRE(r.size() == 2);
  CHECK(r[0].verdict == Verdict::Violation);
  const verify::Violation* stops = find(r[0], "selection.stops-loading");
  REQUIRE(stops);
  CHECK(stops->severity == verify::Severity::Error);
  CHECK(contains(stops->message, "coll=\"fused-allreduce\""));
  CHECK(contains(stops->message, "the 1 algorithm file after it in path order never loads"));
  REQUIRE(find(r[0], "selection.dead"));  // neither selector ever selects it
  CHECK(r[1].verdict == Verdict::Verified);
  CHECK(use(r[1], "internal").order == "not loaded (the scheduler stopped at an earlier file)");
  CHECK_FALSE(use(r[1], "external").accepts.empty());

  // Last in path order it stops nothing.
  test::TempDir d("selection");
  fs::copy_file(dir + "/b_pairs.xml", d.path / "a_pairs.xml");
  fs::copy_file(dir + "/a_fused.xml", d.path / "z_fused.xml");
  auto last = verify::verifyPaths({d.path.string()}, {});
  REQUIRE(last.size() == 2);
  CHECK_FALSE(find(last[1], "selection.stops-loading"));
  CHECK(last[0].verdict == Verdict::Verified);
  CHECK_FALSE(use(last[0], "internal").accepts.empty());
}

TEST_CASE("stray entries: empty, gzip, dangling and directory links (sub-directories are skipped)") {
  test::TempDir d("selection");
  const std::string good = slurp(test::fixture(std::string("verify-dirs/") + "stray_file").string() + "/a_pairs.xml");
  std::ofstream(d.path / "a.xml") << good;
  std::ofstream(d.path / ".hidden");  // empty
  gzFile gz = gzopen((d.path / "b.xml.gz").c_str(), "wb");
  gzwrite(gz, good.data(), static_cast<unsigned>(good.size()));
  gzclose(gz);
  fs::create_symlink(d.path / "missing.xml", d.path / "c_dangling.xml");
  fs::create_directories(d.path / "sub");
  std::ofstream(d.path / "sub" / "x.xml") << good;
  fs::create_directory_symlink(d.path / "sub", d.path / "d_dir_link");
  fs::create_symlink(d.path / "a.xml", d.path / "e_link.xml");
  std::ofstream(d.path / "f_declaration_first.xml") << "<?xml version=\"1.0\"?>\n<!-- licence -->\n" << good;

  auto r = verify::verifyPaths({d.path.string()}, {});
  std::vector<std::string> names;
  for (const auto& report : r) names.push_back(fs::path(report.file).filename().string());
  CHECK(names == std::vector<std::string>{".hidden", "a.xml", "b.xml.gz", "c_dangling.xml", "d_dir_link", "e_link.xml",
                                          "f_declaration_first.xml"});
  REQUIRE(r.size() == 7);
  for (size_t k : {0, 2, 3, 4}) {
    INFO(names[k]);
    CHECK(find(r[k], "selection.stray-file") != nullptr);
  }
  CHECK(contains(find(r[0], "selection.stray-file")->message, "it is empty"));
  CHECK(contains(find(r[2], "selection.stray-file")->message, "gzip-compressed"));
  CHECK(contains(find(r[3], "selection.stray-file")->message, "symbolic link to nothing"));
  CHECK(contains(find(r[4], "selection.stray-file")->message, "not a file"));
  // A link to an algorithm is one (a duplicate: shadowed by a.xml); a declaration makes a file an
  // algorithm with a runtime-parser finding, not a stray.
  CHECK(find(r[5], "selection.stray-file") == nullptr);
  CHECK(find(r[5], "selection.shadowed") != nullptr);
  CHECK(find(r[6], "selection.stray-file") == nullptr);
  CHECK(find(r[6], "format.runtime-parser") != nullptr);
}

TEST_CASE("the legacy runtime selects in list order with its own window and keeps 4 algorithms per communicator") {
  // a_upto_2m loads ([0, 2 MiB)); b_from_1m's minBytes > maxBytes=0: the legacy runtime skips it.
  auto r = verify::verifyPaths({test::fixture(std::string("verify-dirs/") + "overlapping_windows").string()},
                               test::legacyOptions());
  REQUIRE(r.size() == 2);
  REQUIRE(r[0].selection.size() == 1);
  CHECK(r[0].selection[0].selector == "legacy");
  // [0, 2 MiB) holds 2 MiB - 2 bytes (the largest even count of a 1-byte type), not 2 MiB.
  CHECK(r[0].selection[0].selected.front().bytesMax == (1 << 21) - 2);
  CHECK(find(r[0], "selection.ambiguous") == nullptr);
  const verify::Violation* dead = find(r[1], "selection.dead");
  REQUIRE(dead);
  CHECK(contains(dead->message, "refuses the window minBytes=1048576 maxBytes=0"));

  // Five 2-rank files and one 3-rank file: the fifth 2-rank file is ignored, the 3-rank one loads.
  test::TempDir d("selection");
  std::string text = slurp(test::fixture(std::string("verify-dirs/") + "disjoint_windows").string() + "/a_small.xml");
  for (const char* name : {"f1.xml", "f2.xml", "f3.xml", "f4.xml", "f5.xml"}) std::ofstream(d.path / name) << text;
  std::ofstream(d.path / "g_three_ranks.xml")
      << slurp(test::fixture(std::string("verify-dirs/") + "internal_only").string() + "/allgather_ring3.xml");
  auto l = verify::verifyPaths({d.path.string()}, test::legacyOptions());
  REQUIRE(l.size() == 6);
  for (size_t k = 0; k < 4; ++k) CHECK(find(l[k], "selection.too-many-files") == nullptr);
  REQUIRE(find(l[4], "selection.too-many-files"));
  CHECK(contains(find(l[4], "selection.too-many-files")->message, "4 earlier files are for 2 ranks"));
  CHECK(find(l[5], "selection.too-many-files") == nullptr);
  // Under list order f2..f4 lose every call to f1.
  CHECK(find(l[1], "selection.shadowed") != nullptr);
}

TEST_CASE("the JSON report lists what each selector does with each file, deterministically") {
  verify::RunInfo run{"msccl-executor", 10};
  std::ostringstream a, b;
  verify::writeJson(
      a, verify::verifyPaths({test::fixture(std::string("verify-dirs/") + "served_counts_differ").string()}, {}), run);
  verify::writeJson(
      b, verify::verifyPaths({test::fixture(std::string("verify-dirs/") + "served_counts_differ").string()}, {}), run);
  CHECK(a.str() == b.str());
  auto j = nlohmann::json::parse(a.str());
  auto& selection = j["files"][1]["selection"];
  REQUIRE(selection.size() == 2);
  CHECK(selection[0]["selector"] == "internal");
  CHECK(selection[0]["order"] == "path order, 2 of 2");
  CHECK(selection[1]["selector"] == "external");
  auto& first = selection[0]["selected"][0];
  CHECK(first["call_form"] == "in-place");
  CHECK(first["type_size"] == 1);
  CHECK(first["count_min"] == 2);
  CHECK(first["count_max"] == 4);
  CHECK(first["bytes_min"] == 2);
  CHECK(first["bytes_max"] == 4);
  CHECK(selection[0]["accepts"][0]["bytes_max"] == 1 << 20);
  // A single file is not part of a directory: no selection entries.
  std::ostringstream single;
  verify::writeJson(
      single,
      verify::verifyPaths(
          {test::fixture(std::string("verify-dirs/") + "served_counts_differ").string() + "/a_chunks8.xml"}, {}),
      run);
  CHECK(nlohmann::json::parse(single.str())["files"][0]["selection"].empty());

  std::ostringstream text;
  verify::writeText(
      text, verify::verifyPaths({test::fixture(std::string("verify-dirs/") + "served_counts_differ").string()}, {}),
      run);
  CHECK(contains(text.str(),
                 "  selection internal (path order, 2 of 2): accepts in-place from count 2 to 1 MiB with "
                 "1/2/4/8-byte types; runs in-place from count 2 to count 4 with 1/2/4/8-byte types\n"));
}
