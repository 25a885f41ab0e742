// The property test's fused programs (docs/fused.md): a generated program made a fused
// computation + collective program.
#pragma once

#include "ir/model.hpp"

namespace ccforge::property {

// Makes an out-of-place program a fused GEMV + collective (docs/fused.md): each rank gets operands
// and a product, a new block computes the input chunks one by one (flag after each), and every
// step that reads the input waits for the chunks it reads: through its own dependency when it has
// none, else through a nop inserted before it (later steps of its block move up by one, and the
// dependencies on them with them).
void makeFused(ir::Algorithm& a);

}  // namespace ccforge::property
