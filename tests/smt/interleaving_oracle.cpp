#include "semantics/step_kinds.hpp"
#include "interleaving_oracle.hpp"

#include <map>

namespace ccforge::test {
namespace {

struct Point {
  uint32_t step = 0;
  int32_t chunk = -1;
  enum Kind { Begin, Read, Write, End } kind = Begin;
  uint64_t predecessors = 0;  // bit mask of points that must come first
};

class Search {
 public:
  Search(const verify::smt::DataSetting& setting, const verify::smt::SyncGraph& graph, size_t maxStates)
      : setting_(setting), graph_(graph), maxStates_(maxStates) {}

  std::optional<std::set<std::vector<semantics::ChunkValues::Id>>> run() {
    if (!build()) return std::nullopt;
    std::vector<semantics::ChunkValues::Id> memory(setting_.cellCount());
    for (size_t c = 0; c < memory.size(); ++c) memory[c] = setting_.initial(static_cast<int32_t>(c));
    std::vector<semantics::ChunkValues::Id> computed(slots_, kNotYet);
    if (!visit(0, memory, computed)) return std::nullopt;
    return outcomes_;
  }

 private:
  static constexpr semantics::ChunkValues::Id kNotYet = UINT32_MAX;
  static int32_t chunksOf(const semantics::LoadedStep& st) {
    return st.type == ir::OpType::Nop ? 0 : std::max(st.cnt, 0);
  }

  bool build() {
    const semantics::LoadedProgram& index = setting_.index();
    std::map<uint32_t, std::vector<size_t>> reads, writes;
    for (uint32_t s : graph_.order()) {
      const int32_t n = chunksOf(index.step(s));
      // Begin, a read and a write per chunk, end: each point is a bit of a 64-bit mask.
      if (points_.size() + 2 * static_cast<size_t>(n) + 2 > 64) return false;
      begin_[s] = points_.size();
      points_.push_back({s, -1, Point::Begin, 0});
      firstSlot_[s] = slots_;
      slots_ += static_cast<size_t>(n);
      for (int32_t j = 0; j < n; ++j) {
        reads[s].push_back(points_.size());
        points_.push_back({s, j, Point::Read, bit(begin_[s])});
      }
      for (int32_t j = 0; j < n; ++j) {
        writes[s].push_back(SIZE_MAX);
        if (setting_.destinationCell(s, j) == verify::smt::kOutside) continue;
        writes[s].back() = points_.size();
        uint64_t pred = bit(reads[s][static_cast<size_t>(j)]);
        // A step reads all its operands before it writes them.
        for (int32_t k = 0; k < n; ++k)
          if (k != j && (setting_.sourceCell(s, k) == setting_.destinationCell(s, j) ||
                         (index.step(s).type == ir::OpType::Reduce &&
                          setting_.destinationCell(s, k) == setting_.destinationCell(s, j))))
            pred |= bit(reads[s][static_cast<size_t>(k)]);
        points_.push_back({s, j, Point::Write, pred});
      }
      end_[s] = points_.size();
      uint64_t all = bit(begin_[s]);
      for (size_t r : reads[s]) all |= bit(r);
      for (size_t w : writes[s])
        if (w != SIZE_MAX) all |= bit(w);
      points_.push_back({s, -1, Point::End, all});
    }
    for (const verify::smt::SyncEdge& e : graph_.edges()) {
      if (e.strict) {
        points_[begin_[e.to]].predecessors |= bit(end_[e.from]);
        continue;
      }
      points_[begin_[e.to]].predecessors |= bit(begin_[e.from]);
      points_[end_[e.to]].predecessors |= bit(end_[e.from]);
      const size_t n = std::min(reads[e.from].size(), reads[e.to].size());
      for (size_t j = 0; j < n; ++j) points_[reads[e.to][j]].predecessors |= bit(reads[e.from][j]);
    }
    // A point waits for its step's begin (begin waits for nothing but edges).
    for (Point& p : points_)
      if (p.kind != Point::Begin) p.predecessors |= bit(begin_[p.step]);
    return true;
  }
  static uint64_t bit(size_t i) { return uint64_t{1} << i; }

  bool visit(uint64_t done, std::vector<semantics::ChunkValues::Id>& memory,
             std::vector<semantics::ChunkValues::Id>& computed) {
    std::vector<semantics::ChunkValues::Id> key = memory;
    key.insert(key.end(), computed.begin(), computed.end());
    if (!seen_.insert({done, key}).second) return true;
    if (seen_.size() > maxStates_) return false;
    if (done == (points_.size() == 64 ? ~uint64_t{0} : bit(points_.size()) - 1)) {
      std::vector<semantics::ChunkValues::Id> outputs;
      for (const verify::smt::OutputChunk& o : setting_.outputs())
        outputs.push_back(o.cell == verify::smt::kOutside ? semantics::ChunkValues::kUninitialized
                                                          : memory[static_cast<size_t>(o.cell)]);
      outcomes_.insert(outputs);
      return true;
    }
    for (size_t i = 0; i < points_.size(); ++i) {
      const Point& p = points_[i];
      if ((done & bit(i)) || (p.predecessors & ~done)) continue;
      const size_t slot = p.chunk >= 0 ? firstSlot_[p.step] + static_cast<size_t>(p.chunk) : 0;
      std::vector<semantics::ChunkValues::Id> nextMemory = memory, nextComputed = computed;
      if (p.kind == Point::Read) nextComputed[slot] = compute(p, memory, computed);
      if (p.kind == Point::Write)
        nextMemory[static_cast<size_t>(setting_.destinationCell(p.step, p.chunk))] = computed[slot];
      if (!visit(done | bit(i), nextMemory, nextComputed)) return false;
    }
    return true;
  }

  semantics::ChunkValues::Id compute(const Point& p, const std::vector<semantics::ChunkValues::Id>& memory,
                                     const std::vector<semantics::ChunkValues::Id>& computed) const {
    auto read = [&](int32_t cell) {
      return cell == verify::smt::kOutside ? semantics::ChunkValues::kUninitialized : memory[static_cast<size_t>(cell)];
    };
    const semantics::LoadedStep& st = setting_.index().step(p.step);
    semantics::ChunkValues::Id incoming = semantics::ChunkValues::kUninitialized;
    if (semantics::receives(st.type)) {
      const uint32_t sender = graph_.senderOf(p.step);
      if (p.chunk < chunksOf(setting_.index().step(sender)))
        incoming = computed[firstSlot_.at(sender) + static_cast<size_t>(p.chunk)];
    }
    return setting_.result(p.step, incoming, read(setting_.sourceCell(p.step, p.chunk)),
                           st.type == ir::OpType::Reduce ? read(setting_.destinationCell(p.step, p.chunk))
                                                         : semantics::ChunkValues::kUninitialized);
  }

  const verify::smt::DataSetting& setting_;
  const verify::smt::SyncGraph& graph_;
  size_t maxStates_;
  std::vector<Point> points_;
  std::map<uint32_t, size_t> begin_, end_, firstSlot_;
  size_t slots_ = 0;
  std::set<std::pair<uint64_t, std::vector<semantics::ChunkValues::Id>>> seen_;
  std::set<std::vector<semantics::ChunkValues::Id>> outcomes_;
};

}  // namespace

std::optional<std::set<std::vector<semantics::ChunkValues::Id>>> everyOutcome(const verify::smt::DataSetting& setting,
                                                                              const verify::smt::SyncGraph& graph,
                                                                              size_t maxStates) {
  return Search(setting, graph, maxStates).run();
}

}  // namespace ccforge::test
