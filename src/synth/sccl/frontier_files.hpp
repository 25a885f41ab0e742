// The frontier of an SMT search made into programs and files (docs/synth.md, "Output
// directories"): each point lowered, compiled and verified (emit.hpp) and priced by the cost
// model; the points that can be deployed together are written to the output directory, each
// with the window of sizes where the cost model makes it the fastest of those written
// (deploy/deployment.hpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/model_parameters.hpp"
#include "synth/deploy/deployment.hpp"
#include "synth/sccl/cost.hpp"
#include "synth/sccl/emit.hpp"
#include "synth/sccl/synthesizer.hpp"

namespace ccforge::synth::sccl {

struct FrontierFilesOptions {
  ir::Protocol protocol = ir::Protocol::Simple;
  std::string outputDirectory;  // empty: nothing is written
  // A point (C,S,R) is the program <programPrefix>-c<C>-s<S>-r<R> in <filePrefix>-c<C>-s<S>-r<R>.xml.
  std::string programPrefix;
  std::string filePrefix;
  // Each window kept only where the file is predicted to beat NCCL by the gain needed there
  // (deploy/nccl_gate.hpp) with this margin; nullopt: the points compared among themselves only.
  std::optional<double> ncclMargin = sim::kDefaultMargin;
};

struct FrontierPoint {
  InstanceResult instance;
  semantics::CallForm form = semantics::CallForm::OutOfPlace;
  topo::Rational roundsPerChunk;
  Emitted emitted;
  std::optional<deploy::SizeRange> cheapest;  // of the whole frontier under the cost model
  deploy::Deployment deployment;              // the window it is (or would be) written with, or why not
  std::string file;                           // where it was written; empty when not written
};

// The call forms a schedule is lowered for: out of place, and in place where the collective
// has an in-place call (allgather, reducescatter, allreduce).
std::vector<semantics::CallForm> callFormsOf(semantics::CollectiveType collective);

// The points in frontier order, each instance once per call form. A point that fails to compile
// or verify is not written.
// Throws std::invalid_argument when a file cannot be written.
std::vector<FrontierPoint> frontierFiles(Synthesizer& synthesizer, const std::vector<InstanceResult>& frontier,
                                         const CostModel& cost, const FrontierFilesOptions& options);

}  // namespace ccforge::synth::sccl
