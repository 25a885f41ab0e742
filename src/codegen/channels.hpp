// Channel assignment. A chain of transfers joined by fused instructions (w -> x -> y with rcs on
// x) runs in one thread block per rank, hence on one channel. Each chain takes the channel its
// directive names or, when automatic, the lowest channel on which every rank it touches can
// still give it a thread block: one thread block per (send peer, receive peer, channel), at most
// maxPeersPerChannel sending and receiving thread blocks per channel, at most `cap` steps per
// thread block. Replicas (instances, parallelized fragments) go to distinct channels where the
// limit allows: replica k of a chain on channel c prefers channel c + k*B, B the number of
// channels replica 0 uses, wrapping below the limit.
#pragma once

#include <cstdint>
#include <vector>

#include "codegen/connection_graph.hpp"
#include "codegen/instruction_dag.hpp"
#include "semantics/runtime_profile.hpp"
#include "dsl/program.hpp"

namespace ccforge::codegen {

struct ChannelAssignment {
  ConnectionGraph graph;
  std::vector<int32_t> home;      // per instruction: a node of its thread block's group; -1: local, unplaced
  std::vector<int32_t> sendConn;  // per sending instruction: its send connection (the FIFO it feeds)
  int32_t stride = 1;             // channels replica 0 uses
};

// The channel directive of the chain that starts at `start`, -1 if automatic; a thread block label
// without a channel means channel 0 (msccl-tools' rule).
int32_t chainDirective(const InstructionDag& dag, int32_t start);

// Who may share an isolated chain's connections: nobody, or the isolated chains that use exactly
// the same links (msccl-tools' "flows": the rings of a hierarchical program that carry different
// chunks over one path), which needs fewer channels.
enum class Isolation : uint8_t { PerChain, PerFlow };

// The order chains take channels in: the program's (the first instruction of each chain), or the
// longest chains first (first-fit decreasing), which packs chains that cross several levels of
// a hierarchy before the short ones fill the connections they need.
enum class ChainOrder : uint8_t { Program, LongestFirst };

// `isolated`: first instructions of automatic chains that must keep their connections from the
// other transfers (the scheduler found them overfilling a shared connection).
// Throws CompileError when a directive cannot be honoured or no channel is left.
ChannelAssignment assignChannels(InstructionDag& dag, const dsl::Program& program,
                                 const semantics::RuntimeProfile& target, int32_t cap,
                                 const std::vector<bool>& isolated, Isolation isolation, ChainOrder order);

}  // namespace ccforge::codegen
