// What `ccforge synth` was asked for, shared by its two methods: SMT synthesis in the SCCL
// model (cmd_synth.cpp, single boxes) and spanning-tree packing with hierarchical
// composition (cmd_synth_trees.cpp, multi-box machines). Output formats: docs/synth.md.
#pragma once

#include <optional>
#include <string>

#include "cli/process_group_cli.hpp"
#include "sim/model_parameters.hpp"
#include "topology/topology.hpp"

namespace ccforge::cli {

struct SynthArguments {
  std::string topology;    // catalog name or spec path
  std::string collective;  // allgather, reducescatter, allreduce, alltoall, broadcast[:root], ...
  std::optional<int> steps;
  std::optional<int> rounds;
  std::optional<int> chunks;
  bool pareto = false;
  bool leastSteps = false;
  bool bandwidthOptimal = false;
  std::string solver = "z3";    // z3 | cvc5
  std::string method = "auto";  // auto | smt | trees; auto picks trees for multi-box topologies
  // Tree method only: packing ("trees"), "hierarchical" or "auto" (both on multi-box machines).
  std::string composition = "auto";
  std::string protocol = "Simple";
  std::string outputDir;  // -o DIR: the points the runtime can select, with size windows
  // -o: a window only where NCCL is beaten by this much and by the model's error (deploy/nccl_gate.hpp)
  double marginPercent = sim::kDefaultMargin * 100;
  bool allWindows = false;             // --all-windows: the programs compared among themselves only
  std::string format = "text";         // text | json
  double timeoutSeconds = 600;         // whole search
  double instanceTimeoutSeconds = 60;  // each solver call
  int maxChunks = 0;                   // SMT searches: largest C tried (0: from the bandwidth bound)
  int maxSteps = 0;                    // SMT searches: largest S tried (0: steps bound + GPUs)
  ProcessGroupArguments group;         // --ranks, --group-size/-stride/-start
};

// What a run synthesizes for: the machine, or the topology a process group's communicator sees
// on it, with what the reports say of the group.
struct SynthTarget {
  topo::Topology topology;
  std::vector<int32_t> group;  // machine ranks; empty: the whole machine
  int32_t machineGpus = 0;
  // The stem of the files a run writes: <topology stem>[-<group tag>]-<collective>.
  std::string filePrefix;
};

// The margin synth -o weighs its files against NCCL with; nullopt under --all-windows.
inline std::optional<double> ncclMargin(const SynthArguments& a) {
  return a.allWindows ? std::nullopt : std::optional<double>(a.marginPercent / 100);
}

// The tree-packing path; returns the process exit code (docs/exit-codes.md).
int runTreeSynthesis(const SynthArguments& args, const SynthTarget& target);

}  // namespace ccforge::cli
