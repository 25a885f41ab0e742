// A witness read back from JSON (the standalone files of --witness-dir, or an element of a
// report's smt.witnesses) and replayed against the program it was found for: the deadlock
// schedule in the runtime's blocking semantics, to the blocked state it lists; a data schedule
// in the interleaving semantics, to an output that differs.
#pragma once

#include <array>
#include <istream>
#include <optional>
#include <string>
#include <vector>

#include "semantics/collective.hpp"
#include "verify/step_ref.hpp"
#include "verify/report.hpp"

namespace ccforge::verify::smt {

// Throws std::invalid_argument (with the JSON path) on a document that is not a witness.
verify::Witness readWitness(std::istream& in);

// Empty when the witness replays to the failure it claims; otherwise what went wrong.
std::string replayWitness(const semantics::LoadedProgram& index, const std::optional<semantics::Collective>& collective,
                          const std::vector<std::array<int32_t, 3>>& bufferLengths, const verify::Witness& witness);

}  // namespace ccforge::verify::smt
