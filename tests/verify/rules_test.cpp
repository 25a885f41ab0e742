// The rule catalogue (src/verify/rules.cpp), the ids the sources emit and the rule reference of
// docs/verify.md stay in step: a new rule id in the code without a catalogue entry and a
// documented anchor fails here.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "verify/rules.hpp"

namespace fs = std::filesystem;
using namespace ccforge;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Every string literal in src/ that looks like a rule id.
std::set<std::string> emittedRuleIds() {
  static const std::regex literal(
      "\"((format|limits|connections|race|postcondition|deadlock|selection|buffers|engines|input|internal|fused)\\.[a-"
      "z0-9-]+)\"");
  std::set<std::string> ids;
  for (const auto& e : fs::recursive_directory_iterator(fs::path(CCFORGE_SOURCE_DIR) / "src")) {
    if (e.path().extension() != ".cpp" && e.path().extension() != ".hpp") continue;
    const std::string text = slurp(e.path());
    for (auto it = std::sregex_iterator(text.begin(), text.end(), literal); it != std::sregex_iterator(); ++it)
      ids.insert((*it)[1]);
  }
  return ids;
}

}  // namespace

TEST_CASE("every rule id the sources emit is in the catalogue") {
  const std::set<std::string> ids = emittedRuleIds();
  CHECK(ids.size() >= 40);
  for (const std::string& id : ids) {
    INFO(id);
    CHECK(verify::findRule(id) != nullptr);
  }
}

TEST_CASE("every catalogued rule has an anchor in the rule reference of docs/verify.md") {
  const std::string doc = slurp(fs::path(CCFORGE_SOURCE_DIR) / "docs" / "verify.md");
  std::set<std::string_view> seen;
  for (const verify::RuleInfo& r : verify::ruleCatalogue()) {
    INFO(r.id);
    CHECK(seen.insert(r.id).second);  // no duplicates
    const std::string anchor = verify::ruleHelpPath(r.id).substr(std::string("docs/verify.md#").size());
    CHECK(doc.find("<a id=\"" + anchor + "\"></a>`" + std::string(r.id) + "`") != std::string::npos);
  }
}
