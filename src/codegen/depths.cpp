#include "codegen/depths.hpp"

#include <algorithm>

namespace ccforge::codegen {

void computeDepths(InstructionDag& dag) {
  auto& in = dag.instrs;
  const auto n = static_cast<int32_t>(in.size());
  for (int32_t v = 0; v < n; ++v) {
    Instr& i = in[static_cast<size_t>(v)];
    if (i.removed) continue;
    int32_t d = 0;
    for (int32_t p : dag.preds(v)) d = std::max(d, in[static_cast<size_t>(p)].depth + 1);
    if (i.recvFrom >= 0) d = std::max(d, in[static_cast<size_t>(i.recvFrom)].depth + 1);
    i.depth = d;
  }
  for (int32_t v = n - 1; v >= 0; --v) {
    Instr& i = in[static_cast<size_t>(v)];
    if (i.removed) continue;
    int32_t d = 0;
    for (int32_t s : dag.succs(v)) d = std::max(d, in[static_cast<size_t>(s)].rdepth + 1);
    if (i.sendTo >= 0) d = std::max(d, in[static_cast<size_t>(i.sendTo)].rdepth + 1);
    i.rdepth = d;
  }
}

}  // namespace ccforge::codegen
