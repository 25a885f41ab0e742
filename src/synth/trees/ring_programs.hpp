// Lowering box rings (box_rings.hpp) to an allgather DSL program, out of place. Every root's
// share is cut into a power-of-two number of pieces (so that the file serves power-of-two sizes)
// and dealt to the rings: each ring gets the same number from every root, give or take one, the
// rings that get one more rotating with the root so that every ring carries nearly the same in
// all. A ring has lanes, each a channel of its own, for the own box's pass and for each other
// box's pass; a lane carries at most one piece per root, as one-chunk steps forwarded as they
// arrive (the compiler fuses receive-and-send), so that a ring never injects two transfers at
// once (two FIFO slots under Simple), and a hop has as many connections as its pass has lanes
// (NCCL's per-connection bandwidth is below an xGMI link's). Rail transfers and truncated pieces
// ride on the lanes' channels (other peers, so other connections). With second entries the
// network carries more of the other boxes' pieces (docs/synth-trees.md, "Rings").

#pragma once

#include <cstdint>
#include <string>

#include "dsl/program.hpp"
#include "synth/trees/arborescence_packing.hpp"
#include "synth/trees/box_rings.hpp"

namespace ccforge::synth::trees {

struct RingLowering {
  int32_t ownLanes = 1;    // lanes per ring for the own box's pieces
  int32_t otherLanes = 1;  // lanes per ring for each other box's pieces (several boxes)
  // Several boxes: the first piece of every root on every ring enters each other box twice, at
  // the rail peer and, sent by the root over the network, at the GPU half way along the ring
  // (entered over a link without spare units); the second half travels on one more lane per
  // other box. The NICs then carry part of what the box's narrowest links carried.
  bool secondEntries = false;
  // A cycle's two directions on the same channels (their connections differ: each GPU sends to
  // its two neighbours), so that a ring gets twice the lanes within the runtime's channels.
  bool directionsShareChannels = false;
  // 0: the largest power of two of at most rings x the fewer lanes of a pass. Other counts
  // (at most rings x lanes) serve fewer sizes.
  int32_t piecesPerRoot = 0;
  ir::Protocol protocol = ir::Protocol::Simple;
  // In place, each rank's input is its share of the output already: no copy of its own pieces.
  semantics::CallForm form = semantics::CallForm::OutOfPlace;
};

// Channels one lane of every ring takes.
int32_t channelsPerLane(const BoxRings& rings, const RingLowering& how);
// Channels the program uses; the runtime has 32.
int32_t ringChannels(const BoxRings& rings, const RingLowering& how);
int32_t ringPiecesPerRoot(const BoxRings& rings, const RingLowering& how);
// The program's routes as trees (one per piece), for routed rates, depths and reports.
Packing ringPacking(const BoxRings& rings, const RingLowering& how);

dsl::Program ringAllGatherProgram(const std::string& name, const BoxRings& rings, const RingLowering& how);

}  // namespace ccforge::synth::trees
