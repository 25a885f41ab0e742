// `ccforge tune`'s decisions (docs/tune.md): every candidate simulated at the power-of-two sizes
// of the tuned range, NCCL's own choice predicted at the same sizes (sim/nccl_model.hpp), and
// for each call form the sizes where a candidate beats NCCL by the margin and by more than the
// model's error there, and serves every power-of-two call the runtime would pass it there;
// adjacent sizes with the same winner become one [minBytes, maxBytes] window, one file each.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "semantics/collective.hpp"
#include "sim/cost_model.hpp"
#include "sim/nccl_model.hpp"
#include "topology/topology.hpp"
#include "tune/candidates.hpp"

namespace ccforge::tune {

inline constexpr semantics::CallForm kForms[2] = {semantics::CallForm::InPlace, semantics::CallForm::OutOfPlace};
inline size_t formIndex(semantics::CallForm f) { return f == semantics::CallForm::InPlace ? 0 : 1; }

struct TuneOptions {
  uint64_t minBytes = uint64_t{1} << 10;  // the tuned range: powers of two, both ends included
  uint64_t maxBytes = uint64_t{1} << 32;
  double margin = sim::kDefaultMargin;  // a candidate must be this much faster than NCCL (algbw gain)
  sim::Arch arch = sim::Arch::Sm80;     // the model parameters' generation (the CLI takes the spec's)
};

// One candidate over the sizes.
struct Evaluation {
  std::vector<std::optional<double>>
      timeUs;                   // per size; nullopt: not simulated there (outside its compiled window, error)
  std::string simulationError;  // the first error, if any
  // Per form and size: whether every power-of-two call of that form the executor passes with a
  // size in [size, 2 size) selects it (ignoring the window); a form it does not serve: all false.
  std::vector<bool> serves[2];
};

struct Window {
  semantics::CallForm form = semantics::CallForm::InPlace;
  size_t candidate = 0;
  size_t firstSize = 0, lastSize = 0;  // indexes into sizes
  int64_t minBytes = 0, maxBytes = 0;  // what the file's header gets (both inclusive)
  std::string file;                    // the file name in the directory
};

struct CollectiveTuning {
  semantics::CollectiveType collective = semantics::CollectiveType::AllReduce;
  int32_t ranks = 0;
  std::vector<uint64_t> sizes;
  CandidateSet set;
  std::vector<Evaluation> evaluations;  // per candidate
  std::vector<sim::NcclChoice> nccl;    // per size
  // Per size: the gain (NCCL's time / the candidate's) a window needs there: 1 + margin, or the
  // model's error bound in that size regime where it is larger (sim::ModelParameters::errorAt).
  std::vector<double> requiredGain;
  std::vector<std::optional<size_t>> chosen[2];  // per form, per size: the candidate, nullopt: NCCL
  std::vector<Window> windows;
  std::vector<std::string> notes;  // counts a faster candidate could not serve, ...
};

// The sizes: minBytes, 2 minBytes, ..., maxBytes. Throws std::invalid_argument unless both are
// powers of two with minBytes <= maxBytes.
std::vector<uint64_t> tunedSizes(const TuneOptions& options);

// Simulates the candidates, predicts NCCL and chooses the windows.
CollectiveTuning tuneCollective(const topo::Topology& topology, semantics::CollectiveType collective, CandidateSet set,
                                const TuneOptions& options);

// The executor-header copy of a candidate written for a window: only that call form, its window.
ir::Algorithm windowedProgram(const CollectiveTuning& t, const Window& w);

double algbwGBps(uint64_t bytes, double timeUs);

// Why candidate `candidate` got no window (empty when it has one), for the report and the
// warning of a run that writes no program file: not simulated at any tuned size, selected by the
// runtime at none, predicted at best some fraction of the gain over NCCL needed, or where it does
// beat NCCL by that gain another candidate is faster.
std::string whyNoWindow(const CollectiveTuning& t, size_t candidate);

}  // namespace ccforge::tune
