// What NCCL does on its own, and how long it takes: NCCL's tuning model (NVIDIA/nccl
// src/graph/tuning.cc, ncclTopoTuneModel and ncclTopoGetAlgoTime) evaluated with NCCL's own
// constants on NCCL's view of the machine picks the algorithm and protocol, as NCCL's
// topoGetAlgoInfo does (src/enqueue.cc); the same formula with the machine's achieved rates
// (sim/model_parameters.hpp: efficiencies, latency scales, the launch floor) predicts the time of
// that choice. Alltoall, which NCCL runs as grouped point-to-point sends, gets a bandwidth model
// of its own. docs/simulate.md, "NCCL's choice", cites every rule and says what is left out.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "semantics/collective.hpp"
#include "sim/model_parameters.hpp"
#include "sim/nccl_environment.hpp"
#include "sim/nccl_machine.hpp"
#include "sim/nccl_tables.hpp"

namespace ccforge::sim {

struct NcclCall {
  semantics::CollectiveType collective = semantics::CollectiveType::AllReduce;
  // nccl-tests' size: the whole buffer of allreduce, broadcast and reduce, the gathered buffer of
  // allgather and reducescatter, one rank's send buffer of alltoall.
  uint64_t bytes = 0;
  int32_t gpusPerThread = 1;  // nccl-tests -g: GPUs one thread launches on
};

struct NcclChoice {
  std::string algorithm;  // "ring", "tree", "nvls", "nvlstree", "pat", or "p2p" for alltoall
  ir::Protocol protocol = ir::Protocol::Simple;
  double ncclTimeUs = 0;  // NCCL's own estimate, by which it chooses
  double timeUs = 0;      // the predicted time: the machine's rates and the per-call floor
  int32_t channels = 0;   // channels (CTAs) the call runs on
};

// The machine and what a run of it is told: NCCL's view, the model parameters, the environment.
struct NcclSetup {
  NcclMachine machine;
  ModelParameters parameters;
  NcclEnvironment environment;
};
NcclSetup ncclSetup(const topo::Topology& topology, const ModelParameters& parameters,
                    NcclEnvironment environment = {});

// Every (algorithm, protocol) NCCL considers for the call, in NCCL's order (Tree, Ring, NVLS,
// NVLSTree, PAT; LL, LL128, Simple). Throws std::invalid_argument for a collective NCCL does not
// have (gather, scatter, custom) or an environment that leaves nothing enabled.
std::vector<NcclChoice> ncclOptions(const NcclSetup& setup, const NcclCall& call);
// The one NCCL picks: the smallest NCCL estimate, the first on a tie.
NcclChoice ncclChoice(const NcclSetup& setup, const NcclCall& call);

}  // namespace ccforge::sim
