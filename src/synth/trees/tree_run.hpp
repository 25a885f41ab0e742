// A tree-synthesis run, what `ccforge synth --method trees` does (docs/synth-trees.md): each
// requested composition synthesized and compiled (tree_synthesis.hpp), verified and simulated on
// the topology (tree_evaluation.hpp: at 1 GiB, the split rings at 4 GiB, and over a range of
// sizes when compositions are compared), then written to a directory when one is given: the compositions the runtime
// can select, each with the window of sizes where the simulator makes it the fastest of those (deploy/deployment.hpp).
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "semantics/collective.hpp"
#include "sim/model_parameters.hpp"
#include "synth/deploy/deployment.hpp"
#include "synth/trees/tree_evaluation.hpp"
#include "synth/trees/tree_synthesis.hpp"
#include "topology/topology.hpp"

namespace ccforge::synth::trees {

struct TreeRunOptions {
  // nullopt: tree packing (on machines of several boxes: of at most kMaxAutoPackingGpus GPUs),
  // on machines of several boxes hierarchical composition as well, and
  // for allgather on boxes with rings (box_rings.hpp) the ring composition (several boxes: also
  // with second entries).
  std::optional<Composition> composition = std::nullopt;
  ir::Protocol protocol = ir::Protocol::Simple;
  double timeoutSeconds = 600;       // the whole run: every composition, verifying, weighing against NCCL
  std::string outputDirectory = {};  // <algorithm name>.xml per composition written; empty: nothing written
  // Each window kept only where the file is predicted to beat NCCL by the gain needed there
  // (deploy/nccl_gate.hpp) with this margin; nullopt: the compositions compared among themselves only.
  std::optional<double> ncclMargin = sim::kDefaultMargin;
  // Called as each phase begins ("synthesizing the hierarchical composition", ...): CLI progress.
  std::function<void(const std::string&)> progress = {};
};

// GPUs of a multi-box machine up to which a run without --composition tries the tree packing.
inline constexpr size_t kMaxAutoPackingGpus = 32;

// The compositions a run tries.
std::vector<Composition> compositionsOf(const TreeRunOptions& options, const topo::Topology& topology,
                                        semantics::CollectiveType collective);

// The size a composition's headline figures are simulated at: 1 GiB; 4 GiB for the split rings,
// whose network entries pay off once several tile iterations pipeline them (one iteration
// moves 1 GiB on mi250-2).
uint64_t evaluationBytes(Composition c);

struct TreeOutcome {
  Composition composition = Composition::Packing;
  semantics::CallForm form = semantics::CallForm::OutOfPlace;  // the call form its program serves
  TreeSynthesis synthesis;
  TreeEvaluation evaluation;
  deploy::Deployment deployment;  // the window it is (or would be) written with, or why not
  std::string file;               // where it was written; empty when not written
  double seconds = 0;
  // Simulated algbw as a fraction of the cut bound.
  double fractionOfBound() const;
};

// A composition that produced no program; the others still run.
struct TreeFailure {
  enum class Kind : uint8_t {
    NoSchedule,  // no schedule fits the runtime's limits (a codegen::CompileError)
    TimeLimit,   // the synthesis ran past its time limit (inconclusive)
  };
  Composition composition = Composition::Packing;
  Kind kind = Kind::NoSchedule;
  std::string message;
};

struct TreeRun {
  std::vector<TreeOutcome> outcomes;  // in the order of compositionsOf
  std::vector<TreeFailure> failures;
  // The run's time limit stopped a composition or a phase (an outcome left unweighed, unwritten).
  bool timeLimitReached = false;
};

// Throws what synthesizeTrees throws for a request it refuses (std::invalid_argument, InputError)
// and std::invalid_argument when a file cannot be written.
TreeRun runTreeSynthesis(const topo::Topology& topology, semantics::CollectiveType collective,
                         const TreeRunOptions& options);

}  // namespace ccforge::synth::trees
