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

inline constexpr CallForm kForms[2] = {CallForm::InPlace, CallForm::OutOfPlace};
inline size_t formIndex(CallForm f) { return f == CallForm::InPlace ? 0 : 1; }

// Simulated up to here; beyond, each doubling is simulated until the times at s/4, s/2 and s lie on
// one line (slopes within kLinearTolerance) that passes within kMaxIntercept of the origin, and
// larger sizes are extrapolated along it (the
// simulator's time is affine in the tile iterations once the pipeline is full; docs/tune.md).
inline constexpr uint64_t kExtrapolatedAbove = uint64_t{64} << 20;
inline constexpr double kLinearTolerance = 0.002;
inline constexpr double kMaxIntercept = 0.1;  // of the time at the line's start
// The three points of the line run at least this many tile iterations each: below, a program's
// time per byte may still fall as iterations pipeline (the ring compositions of mi250-2 are
// straight from 64 to 256 MiB in one iteration and 20 % faster per byte at 1 GiB).
inline constexpr int64_t kSteadyTileIterations = 4;

struct TuneOptions {
  uint64_t minBytes = uint64_t{1} << 10;  // the tuned range: powers of two, both ends included
  uint64_t maxBytes = uint64_t{1} << 32;
  double margin = 0.05;  // a candidate must be this much faster than NCCL (algbw gain)
  sim::Arch arch = sim::Arch::Sm80;  // the model parameters' generation (the CLI takes the spec's)
};

// One candidate over the sizes.
struct Evaluation {
  std::vector<std::optional<double>> timeUs;  // per size; nullopt: not simulated there (outside its compiled window, error)
  std::string simulationError;               // the first error, if any
  // Per form and size: whether every power-of-two call of that form the executor passes with a
  // size in [size, 2 size) selects it (ignoring the window); a form it does not serve: all false.
  std::vector<bool> serves[2];
};

// The calls a written directory is checked for, as the runtimes select: power-of-two sizes of
// 1 KiB..4 GiB.
inline constexpr uint64_t kCheckedMinBytes = uint64_t{1} << 10;
inline constexpr uint64_t kCheckedMaxBytes = uint64_t{1} << 32;

struct Window {
  CallForm form = CallForm::InPlace;
  size_t candidate = 0;
  size_t firstSize = 0, lastSize = 0;  // indexes into sizes
  int64_t minBytes = 0, maxBytes = 0;  // what the file's header gets (both inclusive)
  std::string file;                    // the file name in the directory
};

struct CollectiveTuning {
  CollectiveType collective = CollectiveType::AllReduce;
  int32_t ranks = 0;
  std::vector<uint64_t> sizes;
  CandidateSet set;
  std::vector<Evaluation> evaluations;     // per candidate
  std::vector<sim::NcclChoice> nccl;       // per size
  // Per size: the gain (NCCL's time / the candidate's) a window needs there: 1 + margin, or the
  // model's error bound in that size regime where it is larger (sim::ModelParameters::errorAt).
  std::vector<double> requiredGain;
  std::vector<std::optional<size_t>> chosen[2];  // per form, per size: the candidate, nullopt: NCCL
  std::vector<Window> windows;
  std::vector<std::string> notes;          // counts a faster candidate could not serve, ...
};

// The sizes: minBytes, 2 minBytes, ..., maxBytes. Throws std::invalid_argument unless both are
// powers of two with minBytes <= maxBytes.
std::vector<uint64_t> tunedSizes(const TuneOptions& options);

// Simulates the candidates, predicts NCCL and chooses the windows.
CollectiveTuning tuneCollective(const topo::Topology& topology, CollectiveType collective, CandidateSet set,
                                const TuneOptions& options);

// The executor-header copy of a candidate written for a window: only that call form, its window.
ir::Algorithm windowedProgram(const CollectiveTuning& t, const Window& w);

double algbwGBps(uint64_t bytes, double timeUs);

}  // namespace ccforge::tune
