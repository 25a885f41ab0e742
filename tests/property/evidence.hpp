// Whether a finding of `verify` carries what shows it: the steps it names exist in the program and
// do what the message says they do (a race: two blocks of one rank touching the named chunk, one
// writing; a wrong chunk: the value it holds against the one required, and the step that wrote it
// last; a deadlock: the blocks that wait, in a configuration the other engines can be run in).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "semantics/collective.hpp"
#include "verify/report.hpp"

namespace ccforge::property {

// Whether a finding's rule is in a family ("deadlock.", "race.", ...).
inline bool inRuleFamily(const verify::Violation& v, std::string_view family) { return v.rule.starts_with(family); }

// A wrong output chunk as a postcondition finding states it.
struct WrongChunk {
  semantics::CallForm form = semantics::CallForm::OutOfPlace;
  int32_t rank = 0;
  int32_t chunk = 0;
  bool uninitialised = false;  // the value includes uninitialised data (the runtime's scratch is zero)
};
std::optional<WrongChunk> wrongChunkOf(const verify::Violation& v);

// The configuration of a deadlock finding.
struct DeadlockConfiguration {
  int32_t tiles = 1;
  int32_t maxAllowedCount = 1;
  int32_t slots = 2;
};
std::optional<DeadlockConfiguration> deadlockConfigurationOf(const verify::Violation& v);

// What is missing from the evidence of a postcondition, race or deadlock finding (empty: none).
std::vector<std::string> evidenceProblems(const ir::Algorithm& algorithm, const semantics::Collective& collective,
                                          const verify::Violation& v);

}  // namespace ccforge::property
