// Alltoall on machines of identical boxes joined by rails: MSCCLang's two-step alltoall (paper
// §7.3) as NCCL's PXN routes it. A GPU first hands each chunk bound for another box to the GPU of
// its own box with the destination's local index, over the box's fabric; that GPU then sends
// every chunk for its rail peer in box c over its own NIC to its rail peer, which is the
// destination. Every chunk crosses the network once, on the rail of its destination's local index,
// so each NIC carries (boxes - 1) x box size chunks each way: the cut bound of a rail-optimized
// machine whose NICs are the bottleneck. A GPU talks to its box mates and its rail peers only:
// (box size - 1) + (boxes - 1) peers, so the runtime's thread blocks (108 co-resident, 64 steps
// each) hold it up to 64 boxes. Every box-mate connection has a thread block that only sends and
// one that only receives; a rail connection too, or one block per end for both directions where
// the thread blocks run short (docs/synth-trees.md, "Alltoall on rails").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dsl/program.hpp"

namespace ccforge::synth::trees {

struct RailAllToAllLowering {
  int32_t railChannels = 2;  // channels the rail connections are spread over (the box's on channel 0)
  // A thread block for each direction of a rail pair (otherwise one that sends and receives).
  bool railBlockEachWay = true;
  ir::Protocol protocol = ir::Protocol::Simple;
};

// `boxes[b][i]` is the rank of local index i in box b; every box has as many GPUs.
dsl::Program railAllToAllProgram(const std::string& name, const std::vector<std::vector<int32_t>>& boxes,
                                 const RailAllToAllLowering& how);

}  // namespace ccforge::synth::trees
