// --dump-smt: every query as a standalone .smt2 file that the z3 and cvc5 command-line tools
// accept and answer as the API did; dumps and reports are the same bytes on every run.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

#include "verify/report_writers.hpp"
#include "verify/verifier.hpp"
#include "support/temp_dir.hpp"

using namespace ccforge;
namespace fs = std::filesystem;

namespace {

const char* const kFixtures[] = {"verify/deadlock/allreduce_pairs_one_slot.xml",
                                 "verify/races/write_read_unordered.xml", "verify/good/allreduce_pairs_n2.xml",
                                 "verify/connections/count_mismatch.xml"};

std::string firstLine(const std::string& command) {
  FILE* p = ::popen(command.c_str(), "r");
  REQUIRE(p != nullptr);
  char buffer[256] = {};
  std::string line = std::fgets(buffer, sizeof buffer, p) ? buffer : "";
  ::pclose(p);
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
  return line;
}

std::string contents(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

verify::Options dumping(const fs::path& dir) {
  verify::Options o;
  o.engine = verify::Engine::Smt;
  o.smt.solvers = verify::SmtSolvers::Both;
  o.smt.dumpDirectory = dir.string();
  return o;
}

std::map<std::string, std::string> dumpedFiles(const fs::path& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out[e.path().filename().string()] = contents(e.path());
  return out;
}

}  // namespace

TEST_CASE("dumped queries are accepted by the z3 and cvc5 tools, which answer as the API did") {
  test::TempDir dir("smt-dump");
  size_t checked = 0;
  for (const char* f : {kFixtures[0], kFixtures[1]}) {
    const verify::FileReport r = verify::verifyFile(fs::path(CCFORGE_FIXTURES) / f, dumping(dir.path));
    REQUIRE(r.smt);
    std::map<std::string, std::string> answers;
    for (const verify::SmtQueryRecord& q : r.smt->queries) answers[q.query] = q.answer;
    for (const auto& e : fs::directory_iterator(dir.path)) {
      const std::string header = firstLine("head -n 1 '" + e.path().string() + "'");
      const std::string name = header.substr(std::string("; ccforge query: ").size());
      if (!answers.count(name)) continue;  // another fixture's query
      INFO(e.path().string());
      const std::string want = answers[name];
      REQUIRE((want == "sat" || want == "unsat"));
      CHECK(firstLine("timeout 120 z3 '" + e.path().string() + "' 2>&1") == want);
      CHECK(firstLine("timeout 120 cvc5 '" + e.path().string() + "' 2>&1") == want);
      answers.erase(name);
      ++checked;
    }
    CHECK(answers.empty());  // every query of the file was dumped
    fs::remove_all(dir.path);
    fs::create_directories(dir.path);
  }
  CHECK(checked >= 15);
}

TEST_CASE("the same input gives byte-identical dumps and reports") {
  test::TempDir first("smt-first"), second("smt-second");
  std::vector<verify::FileReport> a, b;
  for (const char* f : kFixtures) {
    a.push_back(verify::verifyFile(fs::path(CCFORGE_FIXTURES) / f, dumping(first.path)));
    b.push_back(verify::verifyFile(fs::path(CCFORGE_FIXTURES) / f, dumping(second.path)));
  }
  CHECK(dumpedFiles(first.path) == dumpedFiles(second.path));
  CHECK(dumpedFiles(first.path).size() >= 20);
  std::ostringstream ja, jb, ta, tb;
  verify::writeJson(ja, a, {"msccl-executor", 10});
  verify::writeJson(jb, b, {"msccl-executor", 10});
  verify::writeText(ta, a, {"msccl-executor", 10});
  verify::writeText(tb, b, {"msccl-executor", 10});
  CHECK(ja.str() == jb.str());
  CHECK(ta.str() == tb.str());
}
