// Bad input never crashes or hangs the verifier; it becomes a located, "malformed" report.
#include <catch2/catch.hpp>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "verify/verifier.hpp"
#include "support/temp_dir.hpp"

using namespace ccforge;
using verify::Verdict;
namespace fs = std::filesystem;

namespace {

std::string good() {
  std::ifstream in(std::string(CCFORGE_FIXTURES) + "/verify/good/allreduce_pairs_n2.xml");
  return std::string(std::istreambuf_iterator<char>(in), {});
}

verify::FileReport check(const fs::path& p, uint64_t maxBytes = base::kDefaultMaxInputBytes) {
  verify::Options o;
  o.maxInputBytes = maxBytes;
  return verify::verifyFile(p, o);
}

}  // namespace

TEST_CASE("truncated files are malformed at a location") {
  test::TempDir d("robust");
  std::string text = good();
  for (size_t cut : {size_t{1}, text.size() / 3, text.size() / 2, text.size() - 3}) {
    auto r = check(d.write("cut.xml", text.substr(0, cut)));
    INFO(cut);
    CHECK(r.verdict == Verdict::Malformed);
    CHECK_THAT(r.error, Catch::StartsWith((d.path / "cut.xml").string() + ":"));
  }
}

TEST_CASE("random binary data is malformed, never a crash") {
  test::TempDir d("robust");
  std::mt19937 rng(42);
  for (int i = 0; i < 50; ++i) {
    std::string junk(1 + rng() % 4096, '\0');
    for (char& c : junk) c = static_cast<char>(rng());
    auto r = check(d.write("junk.bin", junk));
    CHECK(r.verdict == Verdict::Malformed);
  }
  // XML-looking noise built from pieces of a real file.
  std::string text = good();
  for (int i = 0; i < 200; ++i) {
    std::string mutated = text;
    for (int k = 0; k < 5; ++k) mutated[rng() % mutated.size()] = "<>\"=/ 0-9a"[rng() % 10];
    auto r = check(d.write("mutated.xml", mutated));
    CHECK(r.verdict != Verdict::InternalError);
  }
}

TEST_CASE("huge, negative and overflowing numbers are rejected or reported") {
  test::TempDir d("robust");
  auto replace = [](std::string s, const std::string& from, const std::string& to) {
    s.replace(s.find(from), from.size(), to);
    return s;
  };
  auto big = check(d.write("big.xml", replace(good(), "nchannels=\"1\"", "nchannels=\"99999999999999999999\"")));
  CHECK(big.verdict == Verdict::Malformed);
  CHECK_THAT(big.error, Catch::Contains("out of range"));
  auto huge = check(d.write("huge.xml", replace(good(), "nchunksperloop=\"2\"", "nchunksperloop=\"2147483647\"")));
  CHECK(huge.verdict == Verdict::Inconclusive);  // 2^31 chunks cannot be checked symbolically
  auto negative = check(d.write("neg.xml", replace(good(), "ngpus=\"2\"", "ngpus=\"-2\"")));
  CHECK(negative.verdict == Verdict::Violation);
  auto peer = check(d.write("peer.xml", replace(good(), "send=\"1\"", "send=\"-7\"")));
  CHECK(peer.verdict == Verdict::Violation);
  // Read without trouble, and reported: the runtime's lexer copies it into a 256-byte buffer.
  auto longName = check(
      d.write("name.xml", replace(good(), "name=\"allreduce_pairs\"", "name=\"" + std::string(1 << 20, 'x') + "\"")));
  CHECK(longName.verdict == Verdict::Violation);
  REQUIRE(longName.violations.size() == 1);
  CHECK(longName.violations[0].rule == "format.runtime-parser");
}

TEST_CASE("deep nesting is malformed without exhausting the stack") {
  test::TempDir d("robust");
  std::string deep = "<algo>";
  for (int i = 0; i < 1000000; ++i) deep += "<a>";
  auto r = check(d.write("deep.xml", deep));
  CHECK(r.verdict == Verdict::Malformed);
}

TEST_CASE("a gzip bomb stops at the inflated-size cap") {
  test::TempDir d("robust");
  fs::path bomb = d.path / "bomb.xml.gz";
  gzFile f = gzopen(bomb.c_str(), "wb9");
  std::string block(1 << 20, ' ');
  for (int i = 0; i < 64; ++i) gzwrite(f, block.data(), static_cast<unsigned>(block.size()));
  gzclose(f);
  auto r = check(bomb, 16 << 20);
  CHECK(r.verdict == Verdict::Malformed);
  CHECK_THAT(r.error, Catch::Contains("larger than 16 MiB once inflated"));
}

TEST_CASE("gzip-compressed programs are verified like plain ones") {
  test::TempDir d("robust");
  fs::path gz = d.path / "good.xml.gz";
  gzFile f = gzopen(gz.c_str(), "wb");
  std::string text = good();
  gzwrite(f, text.data(), static_cast<unsigned>(text.size()));
  gzclose(f);
  CHECK(check(gz).verdict == Verdict::Verified);
}

TEST_CASE("missing files, empty and unreadable directories are reported, not fatal") {
  test::TempDir d("robust");
  CHECK(verify::verifyPaths({(d.path / "missing.xml").string()}, {})[0].verdict == Verdict::Malformed);
  fs::create_directories(d.path / "empty");
  auto empty = verify::verifyPaths({(d.path / "empty").string()}, {});
  REQUIRE(empty.size() == 1);
  CHECK_THAT(empty[0].error, Catch::Contains("holds no algorithm files"));

  fs::create_directories(d.path / "locked");
  d.write("locked/a.xml", good());
  fs::permissions(d.path / "locked", fs::perms::none);
  // Root reads any directory: check it as an unprivileged user in a child process.
  pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    if (geteuid() == 0 && setuid(65534) != 0) _exit(3);
    auto r = verify::verifyPaths({(d.path / "locked").string()}, {});
    bool ok = r.size() == 1 && r[0].verdict == Verdict::Malformed &&
              r[0].error.find("cannot read directory") != std::string::npos;
    _exit(ok ? 0 : 1);
  }
  int status = 0;
  waitpid(child, &status, 0);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}
