#include "fused_programs.hpp"

#include <algorithm>
#include <vector>

#include "semantics/step_kinds.hpp"

namespace ccforge::property {

using ir::Buffer;
using ir::OpType;

void makeFused(ir::Algorithm& a) {
  a.fused = true;
  a.collName = "fused-" + a.collName;
  constexpr int32_t kRowsPerChunk = 2, kInner = 4;
  for (ir::Gpu& g : a.gpus) {
    const int32_t computeTb = static_cast<int32_t>(g.threadBlocks.size());
    g.operands = {ir::Operand{0, "W", ir::OperandType::F32, g.inputChunks * kRowsPerChunk, kInner, false, {}},
                  ir::Operand{1, "x", ir::OperandType::F32, kInner, 1, false, {}}};
    g.product = ir::Product{ir::ComputeOp::Gemv, 0, 1, g.inputChunks * kRowsPerChunk, 1, {}};
    std::vector<std::vector<int32_t>> moved(g.threadBlocks.size());  // old step index -> new
    for (size_t t = 0; t < g.threadBlocks.size(); ++t) {
      std::vector<ir::Step> steps;
      for (ir::Step st : g.threadBlocks[t].steps) {
        int32_t last = -1;
        if (semantics::readsLocalSource(st.type) && st.srcbuf == Buffer::Input)
          last = std::max(last, st.srcoff + st.cnt - 1);
        if (semantics::readsLocalDestination(st.type) && st.dstbuf == Buffer::Input)
          last = std::max(last, st.dstoff + st.cnt - 1);
        if (last >= 0 && st.depid >= 0) {
          ir::Step nop;
          nop.type = OpType::Nop;
          nop.depid = computeTb;
          nop.deps = last;
          steps.push_back(nop);
        } else if (last >= 0) {
          st.depid = computeTb;
          st.deps = last;
        }
        moved[t].push_back(static_cast<int32_t>(steps.size()));
        steps.push_back(st);
      }
      g.threadBlocks[t].steps = std::move(steps);
    }
    for (ir::ThreadBlock& tb : g.threadBlocks)
      for (ir::Step& st : tb.steps) {
        if (st.depid < 0 || st.depid >= computeTb) continue;
        const std::vector<int32_t>& m = moved[static_cast<size_t>(st.depid)];
        if (st.deps >= 0 && st.deps < static_cast<int32_t>(m.size())) st.deps = m[static_cast<size_t>(st.deps)];
      }
    for (ir::ThreadBlock& tb : g.threadBlocks)
      for (size_t i = 0; i < tb.steps.size(); ++i) tb.steps[i].s = static_cast<int32_t>(i);
    ir::ThreadBlock compute;
    compute.id = computeTb;
    for (int32_t q = 0; q < g.inputChunks; ++q) {
      ir::Step st;
      st.s = q;
      st.type = OpType::Compute;
      st.srcOperand = true;
      st.dstbuf = Buffer::Input;
      st.dstoff = q;
      st.cnt = 1;
      st.hasdep = true;
      st.op = ir::ComputeOp::Gemv;
      st.row = q * kRowsPerChunk;
      st.nrows = kRowsPerChunk;
      compute.steps.push_back(st);
    }
    g.threadBlocks.push_back(std::move(compute));
  }
}

}  // namespace ccforge::property
