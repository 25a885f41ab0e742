// Peephole fusion (MSCCLang paper §4.3): a receive followed by a send of the same chunks on
// the same rank becomes one instruction that forwards as it receives.
//   recv + send              -> rcs   (receive, store, forward)
//   rrc + send               -> rrcs  (receive, reduce with the local chunk, store, forward)
//   rrc + send, result dead  -> rrs   (the reduced chunk is only forwarded, never stored)
// Before those, a local copy x -> y whose only reader is a receive-reduce into y (rrc y += recv,
// the idiom of an out-of-place program that must not write its input x) becomes that rrc with x
// as its local operand (y = x + recv): the runtime's rrc reads and writes different chunks.
// A send is fused only if it reads exactly what the receive wrote and nothing else orders it,
// and if its channel and thread block directives agree with the receive's.
#pragma once

#include <cstdint>

#include "codegen/lower.hpp"

namespace ccforge::codegen {

struct FusionStats {
  int64_t rcs = 0;
  int64_t rrcs = 0;
  int64_t rrs = 0;
  int64_t copies = 0;  // local copies absorbed into an rrc
};

// Which receive-send pairs fuse: every one that passes the checks above, or only those whose
// pairing is the one most forwarded transfers over each connection use. A thread block pairs one
// receive peer with one send peer on a channel, so chains that forward over one connection from
// different peers (a node ring's transfers and those turning from it into the cross-node ring)
// compete for its pairing on every channel; with one pairing per connection, the others stay a
// receive and a send, each of which fits any thread block of its connection.
enum class Pairing : uint8_t { Any, OnePerConnection };

// Rewrites the DAG in place: fused sends are marked removed, their edges move to the receive.
// Rebuilds the adjacency.
FusionStats fuse(Lowered& lowered, Pairing pairing = Pairing::Any);

}  // namespace ccforge::codegen
