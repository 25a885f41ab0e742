#include "ir/model.hpp"

#include <tuple>

namespace ccforge::ir {
namespace {

auto fields(const Step& s) {
  return std::tie(s.s, s.type, s.srcbuf, s.dstbuf, s.hasdep, s.srcoff, s.dstoff, s.cnt, s.depid, s.deps, s.op, s.row,
                  s.nrows, s.srcOperand, s.dstOperand);
}
bool same(const Step& a, const Step& b) { return fields(a) == fields(b); }

bool same(const ThreadBlock& a, const ThreadBlock& b) {
  if (std::tie(a.id, a.send, a.recv, a.chan) != std::tie(b.id, b.send, b.recv, b.chan)) return false;
  if (a.steps.size() != b.steps.size()) return false;
  for (size_t i = 0; i < a.steps.size(); ++i)
    if (!same(a.steps[i], b.steps[i])) return false;
  return true;
}

bool same(const Operand& a, const Operand& b) {
  return std::tie(a.id, a.name, a.dtype, a.rows, a.cols, a.columnMajor) ==
         std::tie(b.id, b.name, b.dtype, b.rows, b.cols, b.columnMajor);
}
bool same(const std::optional<Product>& a, const std::optional<Product>& b) {
  if (!a || !b) return !a && !b;
  return std::tie(a->op, a->a, a->b, a->rows, a->cols) == std::tie(b->op, b->a, b->b, b->rows, b->cols);
}

bool same(const Gpu& a, const Gpu& b) {
  if (std::tie(a.id, a.inputChunks, a.outputChunks, a.scratchChunks) !=
      std::tie(b.id, b.inputChunks, b.outputChunks, b.scratchChunks))
    return false;
  if (a.operands.size() != b.operands.size() || !same(a.product, b.product)) return false;
  for (size_t i = 0; i < a.operands.size(); ++i)
    if (!same(a.operands[i], b.operands[i])) return false;
  if (a.threadBlocks.size() != b.threadBlocks.size()) return false;
  for (size_t i = 0; i < a.threadBlocks.size(); ++i)
    if (!same(a.threadBlocks[i], b.threadBlocks[i])) return false;
  return true;
}

}  // namespace

size_t Algorithm::stepCount() const {
  size_t n = 0;
  for (const Gpu& g : gpus)
    for (const ThreadBlock& tb : g.threadBlocks) n += tb.steps.size();
  return n;
}

bool Algorithm::sameAs(const Algorithm& o) const {
  if (std::tie(name, proto, nchannels, nchunksperloop, ngpus, coll, collName, inplace, outofplace, minBytes, maxBytes,
               fused, collectiveSpec) != std::tie(o.name, o.proto, o.nchannels, o.nchunksperloop, o.ngpus, o.coll,
                                                  o.collName, o.inplace, o.outofplace, o.minBytes, o.maxBytes, o.fused,
                                                  o.collectiveSpec))
    return false;
  if (gpus.size() != o.gpus.size()) return false;
  for (size_t i = 0; i < gpus.size(); ++i)
    if (!same(gpus[i], o.gpus[i])) return false;
  return true;
}

}  // namespace ccforge::ir
