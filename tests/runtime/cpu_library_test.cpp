// The CPU backend runs every algorithm of the library (specs/algorithms), compiled by the DSL
// compiler for its default target, with random data for every op and several types, in one and in
// several tile iterations, and matches the reference. Custom collectives (alltonext) carry no
// definition the runtime could check and are refused as unsupported.
#include <catch2/catch.hpp>

#include "codegen/compiler.hpp"
#include "semantics/runtime_profile.hpp"
#include "library.hpp"
#include "test_support.hpp"

using namespace ccforge;
using namespace ccforge::runtime;
using namespace ccforge::runtime::test;

namespace {

// Each library algorithm with its defaults, and again with other parameters.
const std::vector<std::vector<std::string>> kVariants = {
    {}, {"ranks=4", "inplace=0", "root=1", "nodes=2", "gpus=2", "chunks=2", "channels=2"}};

// Only the settings the algorithm has.
std::vector<std::string> settingsFor(const algorithms::LibraryEntry& e, const std::vector<std::string>& all) {
  std::vector<std::string> out;
  for (const std::string& s : all) {
    const std::string key = s.substr(0, s.find('='));
    for (const algorithms::Parameter& p : e.parameters)
      if (p.name == key) out.push_back(s);
  }
  return out;
}

}  // namespace

TEST_CASE("CPU: every library algorithm, compiled, matches the reference") {
  REQUIRE(algorithms::library().size() >= 14);
  for (const algorithms::LibraryEntry& entry : algorithms::library()) {
    for (const std::vector<std::string>& variant : kVariants) {
      const std::vector<std::string> settings = settingsFor(entry, variant);
      const algorithms::Instance instance = algorithms::instantiate(entry.name, settings);
      codegen::CompileOptions options;
      options.target = *semantics::profileByName(entry.defaultTarget);  // msccl-legacy for custom collectives
      const ir::Algorithm compiled = codegen::compile(instance.program, options).algorithm;
      INFO(entry.name << " " << compiled.name << " (" << settings.size() << " settings)");
      if (entry.name == "alltonext") {
        CHECK_THROWS_AS(loadExecutable(compiled, entry.name, {}), ProgramRejected);
        continue;
      }
      const ExecutableProgram p = loadExecutable(compiled, entry.name, {});
      const semantics::CallForm form =
          p.serves(semantics::CallForm::OutOfPlace) ? semantics::CallForm::OutOfPlace : semantics::CallForm::InPlace;
      const auto root = instance.arguments.find("root");
      const int32_t r = root == instance.arguments.end() ? 0 : static_cast<int32_t>(root->second);
      for (const SizeRegime& regime : {kSmallChunks, kTwoTiles, kManyTiles}) sweep(p, regime, form, {}, r);
    }
  }
}
