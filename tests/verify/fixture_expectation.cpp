#include "fixture_expectation.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace ccforge::test {

std::vector<std::string> FixtureExpectation::list(const std::string& key) const {
  std::vector<std::string> out;
  std::stringstream in(get(key));
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

verify::Options FixtureExpectation::options(const std::filesystem::path& fixture) const {
  verify::Options o;
  std::stringstream in(get("args"));
  std::string setting;
  while (in >> setting) {
    auto eq = setting.find('=');
    std::string key = setting.substr(0, eq), value = eq == std::string::npos ? "" : setting.substr(eq + 1);
    if (key == "profile")
      o.profile = *semantics::profileByName(value);
    else if (key == "slots")
      o.slots = std::stoi(value);
    else if (key == "gpus-per-box")
      o.boxes = verify::BoxLayout::consecutive(std::stoi(value));
    else if (key == "max-tbs")
      o.maxCoResidentThreadBlocks = std::stoi(value);
    else if (key == "engine")
      o.engine = value == "both" ? verify::Engine::Both : value == "smt" ? verify::Engine::Smt : verify::Engine::Sim;
    else if (key == "collective")
      o.collective = value.ends_with(".json") ? (fixture.parent_path() / value).string() : value;
    else
      throw std::runtime_error("unknown fixture argument " + setting);
  }
  return o;
}

FixtureExpectation readExpectation(const std::filesystem::path& fixture) {
  std::ifstream in(fixture);
  std::string line;
  std::getline(in, line);
  if (line.starts_with("\xEF\xBB\xBF")) line.erase(0, 3);  // a byte-order mark precedes everything
  if (line.starts_with("<?xml")) std::getline(in, line);   // a declaration must come first
  if (line != "<!-- ccforge-expect") throw std::runtime_error(fixture.string() + ": no ccforge-expect comment");
  FixtureExpectation e;
  while (std::getline(in, line) && line != "-->") {
    auto colon = line.find(": ");
    if (colon == std::string::npos) throw std::runtime_error(fixture.string() + ": bad expectation line " + line);
    e.fields[line.substr(0, colon)] = line.substr(colon + 2);
  }
  return e;
}

}  // namespace ccforge::test
