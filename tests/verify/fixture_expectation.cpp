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
  std::string flag, value;
  while (in >> flag >> value) {
    if (flag == "--profile") o.profile = *verify::profileByName(value);
    else if (flag == "--slots") o.slots = std::stoi(value);
    else if (flag == "--max-tbs") o.maxCoResidentThreadBlocks = std::stoi(value);
    else if (flag == "--collective")
      o.collective = value.ends_with(".json") ? (fixture.parent_path() / value).string() : value;
    else throw std::runtime_error("unknown fixture argument " + flag);
  }
  return o;
}

FixtureExpectation readExpectation(const std::filesystem::path& fixture) {
  std::ifstream in(fixture);
  std::string line;
  std::getline(in, line);
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
