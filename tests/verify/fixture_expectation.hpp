// The expected outcome a fixture states about itself in a leading comment (after the byte-order
// mark and the XML declaration, if it has them):
//   <!-- ccforge-expect
//   verdict: violation            (verified | violation | inconclusive)
//   rules: race.write-read,...    (each must be reported)
//   absent: postcondition.wrong-chunk
//   args: profile=msccl-legacy slots=1 gpus-per-box=8 max-tbs=2 collective=NAME|SPEC engine=sim|smt|both
//         (the CLI options;
//         no "--": XML comments may not contain it)
//   message: REGEX                (some violation's message matches)
//   evidence: REGEX               (some violation's evidence line matches)
//   min-slots: 2 | none
//   configurations: tiles=1 maxAllowedCount=71,tiles=2 maxAllowedCount=1   (exactly the configurations the
//         deadlock check ran, in its order)
//   skipped: postcondition        (this check is reported as skipped)
//   -->
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "verify/options.hpp"

namespace ccforge::test {

struct FixtureExpectation {
  std::map<std::string, std::string> fields;
  std::string get(const std::string& key) const {
    auto it = fields.find(key);
    return it == fields.end() ? "" : it->second;
  }
  std::vector<std::string> list(const std::string& key) const;
  // Options from `args`; a spec path is resolved against the fixture's directory.
  verify::Options options(const std::filesystem::path& fixture) const;
};

FixtureExpectation readExpectation(const std::filesystem::path& fixture);

}  // namespace ccforge::test
