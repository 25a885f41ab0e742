// Lowering box rings (box_rings.hpp) to an allgather DSL program, out of place. Every root's
// share is cut into a power-of-two number of pieces (so that the file serves power-of-two sizes)
// and dealt to the rings: each ring gets the same number from every root, give or take one, the
// rings that get one more rotating with the root so that every ring carries nearly the same in
// all. A ring has `copies` lanes, each on a channel of its own per source box, and a lane carries
// one piece per root: one chunk per step, forwarded as it arrives (the compiler fuses
// receive-and-send), so that a ring never injects two transfers at once (two FIFO slots under
// Simple) and a hop has up to `copies` connections per ring (NCCL's per-connection bandwidth is
// below an xGMI link's). Truncated pieces go back on one shared channel; with several boxes each
// ring's rail transfers have one more channel.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dsl/program.hpp"
#include "synth/trees/box_rings.hpp"

namespace ccforge::synth::trees {

struct RingLowering {
  int32_t copies = 1;  // lanes per ring and pass
  ir::Protocol protocol = ir::Protocol::Simple;
};

// Channels the program uses; the runtime has 32.
int32_t ringChannels(const BoxRings& rings, int32_t copies);
// Pieces per root: the largest power of two of at most rings x copies.
int32_t ringPiecesPerRoot(const BoxRings& rings, int32_t copies);
// The rings as trees with the deal's multiplicities (ringTrees), for rates and reports.
Packing dealtRingTrees(const BoxRings& rings, int32_t copies);

dsl::Program ringAllGatherProgram(const std::string& name, const BoxRings& rings, const RingLowering& how);

}  // namespace ccforge::synth::trees
