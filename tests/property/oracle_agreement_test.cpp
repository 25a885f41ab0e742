// The second oracle (issue 27): `verify` against kernel_oracle.hpp, an interpreter of the IR written
// from the executor's parser and kernel that shares no code with ccforge's reader, loaded program,
// collective definitions or step-kind table. A bug in those would otherwise agree with itself in the
// differential test, whose other engines (CPU runtime, simulator) read programs the way verify does.
// Programs: the eight collectives' (differential_test.cpp's generator), custom collectives (random
// chunk maps, given to verify as a CustomCollectiveSpec and to the oracle as its own postcondition)
// and fused GEMV + collective programs (compute steps, operands, product), about half mutated.
// For every program, by what verify reports (errors only):
//   - nothing: the oracle loads it and, in every configuration verify covers (tile iterations x
//     maxAllowedCount, the protocol's transfers in flight) and every call form, finishes with no
//     transfer left unreceived and every constrained output right; verify's smallest slot count m
//     finishes and m - 1 deadlocks in one of them;
//   - only wrong chunks: the oracle finishes and gets exactly the chunks verify names wrong, per form;
//   - races (and no deadlock): the oracle finishes in every configuration;
//   - a deadlock: the oracle deadlocks in the configuration the finding names;
//   - anything else (limits, format, connections, fused declarations): no comparison, but the
//     oracle must not fail on it; and the oracle refuses a program only when verify reports such an
//     error.
// Replay one: CCFORGE_PROPERTY_SEED=<seed> build/tests/property/property_tests "oracle: replay one seed"
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "../verify/fixture_expectation.hpp"
#include "evidence.hpp"
#include "base/input_error.hpp"
#include "ir/reader.hpp"
#include "ir/writer.hpp"
#include "kernel_oracle.hpp"
#include "limit_programs.hpp"
#include "program_generator.hpp"
#include "seed_blocks.hpp"
#include "verify/verifier.hpp"

using namespace ccforge;
using namespace ccforge::property;

namespace oracle_agreement {

// The (tile iterations, maxAllowedCount) pairs verify's deadlock check covers for a size window
// of 0..unbounded (as differential_test.cpp).
const std::vector<std::pair<int32_t, int32_t>> kConfigurations{{1, 71}, {1, 1}, {2, 1}, {3, 1}};
// Blocks of seeds are this many times programsPerBlock(): 4 blocks x 3,000 programs by default.
constexpr int kBlockScale = 3;

enum class Family { Standard, Custom, Fused, Limits };
const char* familyName(Family f) {
  static constexpr const char* kNames[] = {"standard", "custom", "fused", "limits"};
  return kNames[static_cast<int>(f)];
}
// Seeds by remainder modulo 8: 0, 1, 4, 5 the eight collectives; 2, 6 custom; 3 fused; 7 limits.
Family familyOf(uint64_t seed) {
  static constexpr Family kBySeed[] = {Family::Standard, Family::Standard, Family::Custom, Family::Fused,
                                       Family::Standard, Family::Standard, Family::Custom, Family::Limits};
  return kBySeed[seed % 8];
}

struct Tally {
  int programs = 0, compared = 0, oracleRuns = 0;
  std::map<std::string, int> outcomes;  // "<family> <verify outcome>"
  std::string describe() const {
    std::ostringstream out;
    out << programs << " programs, " << compared << " compared, " << oracleRuns << " oracle runs:";
    for (const auto& [k, n] : outcomes) out << " " << k << " " << n << ",";
    return out.str();
  }
};

class AgreementCheck {
 public:
  AgreementCheck(uint64_t seed, Tally& tally) : seed_(seed), tally_(tally), family_(familyOf(seed)) {
    GeneratorOptions options;
    options.customCollectives = family_ == Family::Custom;
    options.fusedPrograms = family_ == Family::Fused;
    generated_ = family_ == Family::Limits ? generateAtLimits(seed) : generateProgram(seed, options);
  }

  std::vector<std::string> run(std::string& details) {
    const ir::Algorithm& a = generated_.algorithm;
    const std::string xml = ir::toXml(a);
    details = "seed " + std::to_string(seed_) + " (" + familyName(family_) + "); mutations:";
    for (const std::string& m : generated_.mutations) details += " [" + m + "]";
    details += "\n" + xml;
    ++tally_.programs;
    ir::ReadResult read;
    try {
      read = ir::readAlgorithm(xml, a.name + ".xml");
    } catch (const base::InputError& e) {
      return {std::string("the writer's output does not read back: ") + e.what()};
    }
    verify::Options options;
    options.maxReportedPerRule = 1000;
    // Custom collectives load in msccl-legacy only (the executor takes the built-in names); fused
    // programs run on ccforge's interpreter (docs/fused.md).
    if (family_ == Family::Custom) options.profile = semantics::legacyProfile();
    if (family_ == Family::Fused) options.profile = semantics::fusedProfile();
    if (generated_.custom)
      options.customCollective = generated_.custom;
    else if (isRooted(generated_.collective))
      options.collective =
          std::string(collectiveTypeName(generated_.collective)) + ":" + std::to_string(generated_.root);
    const verify::FileReport report =
        verify::verifyAlgorithm(read.algorithm, a.name + ".xml", options, read.runtimeParserIssues);
    for (const verify::Violation& v : report.violations)
      if (v.severity == verify::Severity::Error) details += "verify: " + v.rule + ": " + v.message + "\n";

    parsed_ = oracle::parse(xml, options.profile.maxStepsPerThreadBlock);
    post_ = postcondition();
    compare(report);
    return problems_;
  }

 private:
  oracle::Postcondition postcondition() const {
    const ir::Algorithm& a = generated_.algorithm;
    if (!generated_.custom)
      return oracle::standardPostcondition(std::string(collectiveTypeName(generated_.collective)), a.ngpus,
                                           a.nchunksperloop, generated_.root);
    std::vector<oracle::RequiredChunk> required;
    for (const semantics::ChunkMapEntry& e : generated_.custom->post) {
      oracle::RequiredChunk c{e.rank, e.index, {}};
      for (const semantics::Atom& atom : e.value) c.sources.emplace_back(atom.rank, atom.index);
      required.push_back(std::move(c));
    }
    return oracle::customPostcondition(a.ngpus, generated_.custom->inputChunks, generated_.custom->outputChunks,
                                       required);
  }

  std::vector<bool> forms() const {
    std::vector<bool> out;
    if (parsed_.inPlace && post_.servesInPlace) out.push_back(true);
    if (parsed_.outOfPlace) out.push_back(false);
    return out;
  }
  static std::string formName(bool inPlace) { return inPlace ? "in place" : "out of place"; }

  oracle::Outcome run(bool inPlace, int32_t tiles, int32_t maxAllowedCount, int32_t slots) {
    ++tally_.oracleRuns;
    return oracle::run(*parsed_.program, post_, inPlace, oracle::Configuration{tiles, maxAllowedCount, slots});
  }
  static std::string where(bool inPlace, int32_t tiles, int32_t maxAllowedCount, int32_t slots) {
    return formName(inPlace) + ", tiles=" + std::to_string(tiles) +
           " maxAllowedCount=" + std::to_string(maxAllowedCount) + " slots=" + std::to_string(slots);
  }

  void count(const std::string& outcome) { ++tally_.outcomes[std::string(familyName(family_)) + " " + outcome]; }

  void compare(const verify::FileReport& report) {
    std::vector<const verify::Violation*> deadlocks, races, wrong, others;
    for (const verify::Violation& v : report.violations) {
      if (v.severity != verify::Severity::Error) continue;
      (inRuleFamily(v, "deadlock.")        ? deadlocks
       : inRuleFamily(v, "race.")          ? races
       : inRuleFamily(v, "postcondition.") ? wrong
                                           : others)
          .push_back(&v);
    }
    if (report.verdict != verify::Verdict::Verified && report.verdict != verify::Verdict::Violation) {
      count("inconclusive or unreadable");
      return;
    }
    if (family_ == Family::Limits) checkLimits(others);
    if (!others.empty()) {
      count("other errors");
      if (parsed_.program)
        for (bool form : forms()) run(form, 1, 71, oracle::protocolSlots(parsed_.proto));
      return;
    }
    if (!parsed_.program) {
      problems_.push_back("the executor's parser (as the oracle reads it) refuses the program: " + parsed_.refusal +
                          "; verify reports no error of that kind");
      return;
    }
    ++tally_.compared;
    const int32_t slots = oracle::protocolSlots(parsed_.proto);
    if (!deadlocks.empty()) {
      count("deadlock");
      const std::optional<DeadlockConfiguration> c = deadlockConfigurationOf(*deadlocks.front());
      if (!c) return;  // the differential test reports missing evidence
      const bool form = forms().front();
      const oracle::Outcome o = run(form, c->tiles, c->maxAllowedCount, c->slots);
      if (o.ending != oracle::Ending::Deadlock)
        problems_.push_back(deadlocks.front()->rule + " (" + where(form, c->tiles, c->maxAllowedCount, c->slots) +
                            "), but the oracle " + (o.ending == oracle::Ending::Finished ? "finishes" : "refuses: ") +
                            o.detail);
      return;
    }
    count(!races.empty() ? "race" : !wrong.empty() ? "wrong chunks" : "verified");
    for (bool form : forms()) {
      std::set<std::pair<int32_t, int32_t>> named;
      for (const verify::Violation* v : wrong)
        if (const std::optional<WrongChunk> w = wrongChunkOf(*v);
            w && (w->form == semantics::CallForm::InPlace) == form)
          named.insert({w->rank, w->chunk});
      for (const auto& [tiles, maxAllowedCount] : kConfigurations) {
        const oracle::Outcome o = run(form, tiles, maxAllowedCount, slots);
        const std::string at = where(form, tiles, maxAllowedCount, slots);
        if (o.ending != oracle::Ending::Finished) {
          problems_.push_back("verify finds no deadlock, but the oracle (" + at + ") " +
                              (o.ending == oracle::Ending::Deadlock ? "deadlocks: " : "refuses: ") + o.detail);
          continue;
        }
        if (o.leftoverTransfers > 0)
          problems_.push_back("the oracle (" + at + ") ends with " + std::to_string(o.leftoverTransfers) +
                              " transfers never received, which verify does not report");
        if (races.empty() && o.wrongOutputs != named) {
          std::string got, want;
          for (const auto& [r, k] : o.wrongOutputs) got += " (" + std::to_string(r) + "," + std::to_string(k) + ")";
          for (const auto& [r, k] : named) want += " (" + std::to_string(r) + "," + std::to_string(k) + ")";
          problems_.push_back("wrong output chunks (rank,chunk), oracle (" + at + "):" + got + "; verify:" + want);
        }
      }
    }
    if (report.verdict == verify::Verdict::Verified && report.deadlock && report.deadlock->minimumSlots &&
        *report.deadlock->minimumSlots > 1)
      checkMinimumSlots(*report.deadlock->minimumSlots);
  }

  // A program correct but for one limit: verify reports an error of the limits family exactly when
  // the executor's parser or kernel (the oracle) cannot take it.
  void checkLimits(const std::vector<const verify::Violation*>& errors) {
    std::string refusal = parsed_.refusal;
    if (parsed_.program && errors.empty())
      for (bool form : forms())
        if (const oracle::Outcome o = run(form, 1, 71, oracle::protocolSlots(parsed_.proto));
            o.ending == oracle::Ending::Refused)
          refusal = o.detail;
    for (const verify::Violation* v : errors)
      if (!inRuleFamily(*v, "limits."))
        problems_.push_back("a program correct but for a limit gets " + v->rule + ": " + v->message);
    if (errors.empty() != refusal.empty())
      problems_.push_back(errors.empty() ? "verify reports no limit, but the executor refuses it: " + refusal
                                         : "verify reports " + errors.front()->rule +
                                               ", but the executor (the oracle) takes the program");
    if (!errors.empty()) count("over a limit: " + errors.front()->rule);
  }

  // verify's smallest deadlock-free slot count m: m - 1 deadlocks in one configuration it covers.
  void checkMinimumSlots(int32_t m) {
    count("verified, needing " + std::to_string(m) + " slots");
    bool deadlocks = false;
    for (const auto& [tiles, maxAllowedCount] : kConfigurations) {
      const oracle::Outcome enough = run(forms().front(), tiles, maxAllowedCount, m);
      if (enough.ending != oracle::Ending::Finished)
        problems_.push_back("verify says " + std::to_string(m) + " slots suffice, but the oracle (" +
                            where(forms().front(), tiles, maxAllowedCount, m) + ") does not finish: " + enough.detail);
      deadlocks = deadlocks || run(forms().front(), tiles, maxAllowedCount, m - 1).ending == oracle::Ending::Deadlock;
    }
    if (!deadlocks)
      problems_.push_back("verify says " + std::to_string(m) + " slots are needed, but the oracle finishes with " +
                          std::to_string(m - 1) + " in every configuration");
  }

  uint64_t seed_;
  Tally& tally_;
  Family family_;
  GeneratedProgram generated_;
  oracle::ParsedProgram parsed_;
  oracle::Postcondition post_;
  std::vector<std::string> problems_;
};

Tally checkSeeds(uint64_t first, int count) {
  Tally tally;
  checkSeedBlock(first, count, "oracle: replay one seed",
                 [&](uint64_t seed, std::string& details) { return AgreementCheck(seed, tally).run(details); });
  std::cout << "oracle seeds " << first << ".." << first + static_cast<uint64_t>(count) - 1 << ": " << tally.describe()
            << "\n";
  return tally;
}

// Each family reaches each comparison (full blocks only: the sanitizer pass's short blocks check
// agreement only).
void checkShares(const Tally& t) {
  if (t.programs < kBlockScale * kDefaultProgramsPerBlock) return;
  INFO(t.describe());
  CHECK(t.compared * 100 >= t.programs * 60);
  for (const char* family : {"standard", "custom", "fused"})
    for (const char* outcome : {"verified", "wrong chunks", "deadlock", "other errors"}) {
      INFO(family << " " << outcome);
      CHECK(t.outcomes.count(std::string(family) + " " + outcome) == 1);
    }
  CHECK(t.outcomes.count("standard race") == 1);
  for (const char* outcome : {"limits verified", "limits over a limit: limits.cnt",
                              "limits over a limit: limits.fused-reduce", "limits over a limit: limits.steps-per-tb"}) {
    INFO(outcome);
    CHECK(t.outcomes.count(outcome) == 1);
  }
}

}  // namespace oracle_agreement

namespace oa = oracle_agreement;

TEST_CASE("oracle: seeds 5000000..") {
  oa::checkShares(oa::checkSeeds(5'000'000, oa::kBlockScale * programsPerBlock()));
}
TEST_CASE("oracle: seeds 6000000..") {
  oa::checkShares(oa::checkSeeds(6'000'000, oa::kBlockScale * programsPerBlock()));
}
TEST_CASE("oracle: seeds 7000000..") {
  oa::checkShares(oa::checkSeeds(7'000'000, oa::kBlockScale * programsPerBlock()));
}
TEST_CASE("oracle: seeds 8000000..") {
  oa::checkShares(oa::checkSeeds(8'000'000, oa::kBlockScale * programsPerBlock()));
}

TEST_CASE("oracle: replay one seed", "[.]") {
  const char* seed = std::getenv("CCFORGE_PROPERTY_SEED");
  REQUIRE(seed != nullptr);
  oa::Tally tally;
  std::string details;
  const std::vector<std::string> problems = oa::AgreementCheck(std::strtoull(seed, nullptr, 10), tally).run(details);
  std::cout << details << tally.describe() << "\n";
  for (const std::string& p : problems) std::cout << "PROBLEM: " << p << "\n";
  CHECK(problems.empty());
}

// The hand-written fixture corpus, by the outcome each fixture states for itself: every file of a
// built-in collective stated VERIFIED finishes right in the oracle in every form and configuration
// verify covers; every file stated to deadlock (and nothing else) deadlocks in one of them.
TEST_CASE("oracle: the fixtures' stated outcomes") {
  namespace fs = std::filesystem;
  const std::set<std::string> builtIn{"allreduce", "allgather", "reducescatter", "alltoall",
                                      "broadcast", "reduce",    "gather",        "scatter"};
  int verified = 0, deadlocking = 0;
  for (const auto& e : fs::recursive_directory_iterator(fs::path(CCFORGE_FIXTURES) / "verify")) {
    if (e.path().extension() != ".xml") continue;
    const test::FixtureExpectation expect = test::readExpectation(e.path());
    const std::vector<std::string> rules = expect.list("rules");
    const bool deadlockOnly = !rules.empty() && std::all_of(rules.begin(), rules.end(), [](const std::string& r) {
      return r.starts_with("deadlock.");
    });
    if (expect.get("verdict") != "verified" && !deadlockOnly) continue;
    std::ifstream in(e.path());
    const std::string xml((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const verify::Options options = expect.options(e.path());
    const oracle::ParsedProgram parsed = oracle::parse(xml, options.profile.maxStepsPerThreadBlock);
    INFO(e.path().string() << ": " << parsed.refusal);
    REQUIRE(parsed.program);
    if (!builtIn.count(parsed.collective)) continue;
    int32_t root = 0;
    if (options.collective && options.collective->find(':') != std::string::npos)
      root = std::stoi(options.collective->substr(options.collective->find(':') + 1));
    const std::string header = xml.substr(xml.find("<algo"));
    auto number = [&](const std::string& name) {
      const size_t at = header.find(" " + name + "=\"") + name.size() + 3;
      return std::stoi(header.substr(at));
    };
    const oracle::Postcondition post =
        oracle::standardPostcondition(parsed.collective, number("ngpus"), number("nchunksperloop"), root);
    const int32_t slots = options.slots ? *options.slots : oracle::protocolSlots(parsed.proto);
    bool deadlocked = false;
    for (bool inPlace : {true, false}) {
      if (!(inPlace ? parsed.inPlace : parsed.outOfPlace)) continue;
      for (const auto& [tiles, maxAllowedCount] : oa::kConfigurations) {
        const oracle::Outcome o =
            oracle::run(*parsed.program, post, inPlace, oracle::Configuration{tiles, maxAllowedCount, slots});
        INFO((inPlace ? "in place" : "out of place")
             << " tiles=" << tiles << " maxAllowedCount=" << maxAllowedCount << ": " << o.detail);
        if (deadlockOnly) {
          deadlocked = deadlocked || o.ending == oracle::Ending::Deadlock;
          continue;
        }
        CHECK(o.ending == oracle::Ending::Finished);
        CHECK(o.wrongOutputs.empty());
        CHECK(o.leftoverTransfers == 0);
      }
    }
    if (deadlockOnly) {
      CHECK(deadlocked);
      ++deadlocking;
    } else {
      ++verified;
    }
  }
  CHECK(verified >= 20);
  CHECK(deadlocking >= 5);
}
