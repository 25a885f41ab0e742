#include "codegen/slot_tracker.hpp"

#include <algorithm>

namespace ccforge::codegen {

SlotTracker::SlotTracker(const std::vector<CanonicalBuffers>& ranks, std::vector<ResultUse>& uses) : uses_(uses) {
  cells_.resize(ranks.size() * 3);
  for (size_t r = 0; r < ranks.size(); ++r)
    for (ir::Buffer b : {ir::Buffer::Input, ir::Buffer::Output, ir::Buffer::Scratch})
      cells_[r * 3 + static_cast<size_t>(b)].resize(static_cast<size_t>(ranks[r].size(b)));
}

void SlotTracker::noteRead(int32_t writer, int32_t op) {
  if (writer < 0) return;
  preds_.push_back({writer, EdgeKind::True});
  if (static_cast<size_t>(writer) >= uses_.size()) uses_.resize(static_cast<size_t>(writer) + 1);
  int32_t& sole = uses_[static_cast<size_t>(writer)].soleReader;
  if (sole == -1)
    sole = op;
  else if (sole != op)
    sole = -2;
}

void SlotTracker::read(int32_t rank, ir::Buffer b, int32_t off, int32_t cnt, int32_t op) {
  auto& cells = cellsOf(rank, b);
  for (int32_t i = off; i < off + cnt; ++i) {
    Cell& c = cells[static_cast<size_t>(i)];
    noteRead(c.lastWriter, op);
    if (c.readerHead < 0 || readers_[static_cast<size_t>(c.readerHead)].op != op) {
      readers_.push_back(ReaderNode{op, c.readerHead});
      c.readerHead = static_cast<int32_t>(readers_.size() - 1);
    }
  }
}

void SlotTracker::write(int32_t rank, ir::Buffer b, int32_t off, int32_t cnt, int32_t op, bool reads) {
  auto& cells = cellsOf(rank, b);
  for (int32_t i = off; i < off + cnt; ++i) {
    Cell& c = cells[static_cast<size_t>(i)];
    if (reads) noteRead(c.lastWriter, op);
    if (c.readerHead >= 0) {
      for (int32_t n = c.readerHead; n >= 0; n = readers_[static_cast<size_t>(n)].next)
        if (readers_[static_cast<size_t>(n)].op != op)
          preds_.push_back({readers_[static_cast<size_t>(n)].op, EdgeKind::False});
    } else if (c.lastWriter >= 0 && !reads) {
      preds_.push_back({c.lastWriter, EdgeKind::False});
    }
    if (!reads && c.lastWriter >= 0) ++uses_[static_cast<size_t>(c.lastWriter)].overwritten;
    c.lastWriter = op;
    c.readerHead = -1;
  }
}

void SlotTracker::flush(int32_t op, std::vector<Edge>& edges) {
  std::sort(preds_.begin(), preds_.end(),
            [](const Pred& a, const Pred& b) { return a.op != b.op ? a.op < b.op : a.kind < b.kind; });
  for (size_t i = 0; i < preds_.size(); ++i)
    if (i == 0 || preds_[i].op != preds_[i - 1].op) edges.push_back(Edge{preds_[i].op, op, preds_[i].kind});
  preds_.clear();
}

}  // namespace ccforge::codegen
