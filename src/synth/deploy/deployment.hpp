// Which synthesized programs go into an algorithm directory, and with which size window, so
// that the runtime's selection (semantics/selection.hpp, docs/verify.md "Directories") finds
// every file useful and no two competing: a program is written only if every selector of the
// profile picks it for some power-of-two call, and the programs that compete for a call form
// get adjacent, non-overlapping [minBytes, maxBytes] windows where each is predicted the
// fastest (cost_envelope.hpp), kept within the window the compiler gave each (docs/synth.md,
// "Output directories").
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "ir/model.hpp"
#include "semantics/runtime_profile.hpp"
#include "synth/deploy/cost_envelope.hpp"

namespace ccforge::synth::deploy {

struct DeployCandidate {
  const ir::Algorithm* algorithm = nullptr;  // compiled and verified; its header window bounds the new one
  CostCurve cost;                            // predicted time against the call's size in bytes
  double competesFrom = 0;                   // bytes below which it is not a candidate
};

// How sure a window is against NCCL (nccl_gate.hpp): the least predicted gain (NCCL's time / the
// file's) over its sizes, and the most any of them needed.
struct GainOverNccl {
  double least = 0;
  double needed = 0;
};

struct Deployment {
  std::optional<semantics::SizeWindow> window;  // minBytes..maxBytes to write; nullopt: not written
  std::string notWritten;                       // why, when there is no window
  std::optional<GainOverNccl> overNccl;         // nullopt: not weighed against NCCL
};

// One decision per candidate, in order. Candidates of one collective and rank count compete
// where they serve a common call form; a candidate that no selector would ever pick leaves its
// sizes to the others, and the first window starts at 0 bytes.
std::vector<Deployment> planDeployment(const std::vector<DeployCandidate>& candidates,
                                       const semantics::RuntimeProfile& profile);

// Writes the window into the header: minBytes, and maxBytes 0 when it has no upper end.
void setWindow(ir::Algorithm& algorithm, const semantics::SizeWindow& window);
// "0..420043 bytes", "420044..unbounded bytes".
std::string windowText(const semantics::SizeWindow& window);

// For reports: ", written to FILE for 0..420043 bytes" or ", not written: WHY"; without an
// output directory (`file` empty, `writing` false) ", deployable for ..." or ", not deployable: WHY".
std::string outcomeText(const Deployment& deployment, const std::string& file, bool writing);

// A report entry's deployment fields: min_bytes and max_bytes (null: unbounded) and, where
// weighed against NCCL, gain_over_nccl {least, needed}; or not_written, why.
void addDeploymentFields(nlohmann::ordered_json& entry, const Deployment& deployment);

// Writes `algorithm` as DIRECTORY/FILE_NAME (creating the directory; a temporary file renamed,
// so never half written) and returns the path. Throws OutputError when it cannot be written.
std::string writeProgram(const std::string& directory, const std::string& fileName, const ir::Algorithm& algorithm);

}  // namespace ccforge::synth::deploy
