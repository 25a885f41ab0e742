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

// Rewrites the DAG in place: fused sends are marked removed, their edges move to the receive.
// Rebuilds the adjacency.
FusionStats fuse(Lowered& lowered);

}  // namespace ccforge::codegen
