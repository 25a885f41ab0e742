// A synthesis problem in SCCL's model: ranks joined by logical links (a direct GPU-to-GPU link,
// or a path through switches and NICs), each using physical links whose capacity is counted in
// chunks per round, and chunks that start on one rank and must reach a set of ranks.
//
// A combining collective is solved as its non-combining dual on the reversed links
// (reducescatter as allgather, reduce as broadcast) and the schedule is run backwards, reducing
// instead of copying; scatter likewise as gather, run backwards with copies (docs/synth.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "semantics/collective.hpp"
#include "topology/topology.hpp"

namespace ccforge::synth::sccl {

struct LogicalLink {
  int32_t from = 0;               // rank
  int32_t to = 0;                 // rank
  std::vector<int32_t> physical;  // topology link ids along the path
};

// One chunk of the (dual) non-combining collective.
struct ChunkDemand {
  int32_t source = 0;        // the rank that holds it at the start
  std::vector<bool> wanted;  // per rank: must hold it at the end
  int32_t origin = 0;        // allgather/gather: the rank whose input it is; scatter/alltoall: destination
  int32_t target = 0;        // alltoall: destination rank; else unused (0)
  int32_t piece = 0;         // which of the C pieces (per origin, or per pair for alltoall)
};

struct Problem {
  semantics::CollectiveType asked = semantics::CollectiveType::AllGather;  // what the user asked for
  semantics::CollectiveType solved =
      semantics::CollectiveType::AllGather;  // the non-combining collective the solver sees
  bool reversed = false;                     // solved on reversed links, to be run backwards with reductions
  int32_t root = 0;                          // rooted collectives
  int32_t ranks = 0;
  int32_t chunks = 1;              // C: pieces per rank share (alltoall: per rank buffer, a multiple of ranks)
  std::vector<LogicalLink> links;  // in the solved direction
  // Per physical link (topology id): capacity in chunks per round, as numerator/denominator.
  std::vector<int64_t> capacityNum, capacityDen;
  std::vector<ChunkDemand> demands;
  // Hop distances between ranks over the logical links (solved direction); -1 unreachable.
  std::vector<std::vector<int32_t>> distance;
  bool switched = false;  // some logical link passes a switch or NIC
};

// The collectives `ccforge synth --method smt` can synthesize.
bool smtSynthesizable(semantics::CollectiveType c);

// C must be at least 1 (alltoall: a positive multiple of the ranks). Throws std::invalid_argument
// for a collective the SMT method cannot synthesize, a root out of range, fewer than 2 GPUs,
// a bandwidth that is not a rational multiple of the unit, or C that does not fit the collective.
Problem makeProblem(const topo::Topology& topology, semantics::CollectiveType collective, int32_t root, int32_t chunks);

// Rounds per bound chunk of an instance: R / C, or R * ranks / C for alltoall (docs/bounds.md).
// Returns numerator and denominator of the unreduced fraction.
std::pair<int64_t, int64_t> roundsPerChunk(semantics::CollectiveType collective, int32_t ranks, int32_t chunks,
                                           int32_t rounds);

}  // namespace ccforge::synth::sccl
