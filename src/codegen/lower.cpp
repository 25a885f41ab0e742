#include "codegen/lower.hpp"

#include <algorithm>
#include <array>

#include "semantics/dsl/dsl_error.hpp"

namespace ccforge::codegen {
namespace {

using ir::Buffer;

// Canonical naming of one rank's memory: each region is named by the buffer that spans it.
struct RankMap {
  RankLayout layout;
  std::array<Buffer, 3> canonicalOfRegion{Buffer::Input, Buffer::Output, Buffer::Scratch};
  std::array<int32_t, 3> sizes{0, 0, 0};  // per canonical buffer

  RankMap(const Collective& coll, int32_t rank, CallForm form, int32_t scratch) : layout(coll.layout(rank, form, scratch)) {
    for (size_t g = 0; g < layout.regionSizes.size(); ++g)
      for (Buffer b : {Buffer::Scratch, Buffer::Output, Buffer::Input}) {  // last match wins: Input first
        const BufferView& v = layout.view(b);
        if (static_cast<size_t>(v.region) == g && v.base == 0 && v.length == layout.regionSizes[g])
          canonicalOfRegion[g] = b;
      }
    for (size_t g = 0; g < layout.regionSizes.size(); ++g)
      sizes[static_cast<size_t>(canonicalOfRegion[g])] = layout.regionSizes[g];
  }
  std::pair<Buffer, int32_t> canonical(Buffer b, int32_t compiledIndex) const {
    const BufferView& v = layout.view(b);
    return {canonicalOfRegion[static_cast<size_t>(v.region)], v.base + compiledIndex};
  }
};

class SlotTracker {
 public:
  SlotTracker(const std::vector<RankMap>& maps, std::vector<ResultUse>& uses) : uses_(uses) {
    cells_.resize(maps.size() * 3);
    for (size_t r = 0; r < maps.size(); ++r)
      for (size_t b = 0; b < 3; ++b) cells_[r * 3 + b].resize(static_cast<size_t>(maps[r].sizes[b]));
  }

  void read(int32_t rank, Buffer b, int32_t off, int32_t cnt, int32_t instr) {
    auto& cells = cellsOf(rank, b);
    for (int32_t i = off; i < off + cnt; ++i) {
      Cell& c = cells[static_cast<size_t>(i)];
      noteRead(c.lastWriter, instr);
      if (c.readerHead < 0 || readers_[static_cast<size_t>(c.readerHead)].instr != instr) {
        readers_.push_back(ReaderNode{instr, c.readerHead});
        c.readerHead = static_cast<int32_t>(readers_.size() - 1);
      }
    }
  }

  // `reads`: the instruction combines the old contents with new data (rrc, re).
  void write(int32_t rank, Buffer b, int32_t off, int32_t cnt, int32_t instr, bool reads) {
    auto& cells = cellsOf(rank, b);
    for (int32_t i = off; i < off + cnt; ++i) {
      Cell& c = cells[static_cast<size_t>(i)];
      if (reads) noteRead(c.lastWriter, instr);
      if (c.readerHead >= 0) {
        for (int32_t n = c.readerHead; n >= 0; n = readers_[static_cast<size_t>(n)].next)
          if (readers_[static_cast<size_t>(n)].instr != instr) preds_.push_back({readers_[static_cast<size_t>(n)].instr, EdgeKind::False});
      } else if (c.lastWriter >= 0 && !reads) {
        preds_.push_back({c.lastWriter, EdgeKind::False});
      }
      if (!reads && c.lastWriter >= 0) ++uses_[static_cast<size_t>(c.lastWriter)].overwritten;
      c.lastWriter = instr;
      c.readerHead = -1;
    }
  }

  // Moves the predecessors collected for `instr` into `edges`, one edge per predecessor
  // (a true edge wins over a false one).
  void flush(int32_t instr, std::vector<Edge>& edges) {
    std::sort(preds_.begin(), preds_.end(), [](const Pred& a, const Pred& b) {
      return a.instr != b.instr ? a.instr < b.instr : a.kind < b.kind;
    });
    for (size_t i = 0; i < preds_.size(); ++i)
      if (i == 0 || preds_[i].instr != preds_[i - 1].instr) edges.push_back(Edge{preds_[i].instr, instr, preds_[i].kind});
    preds_.clear();
  }

 private:
  struct Cell {
    int32_t lastWriter = -1;  // -1: the initial contents
    int32_t readerHead = -1;  // readers since the last write, a list in readers_
  };
  struct ReaderNode {
    int32_t instr;
    int32_t next;
  };
  struct Pred {
    int32_t instr;
    EdgeKind kind;
  };
  std::vector<Cell>& cellsOf(int32_t rank, Buffer b) { return cells_[static_cast<size_t>(rank) * 3 + static_cast<size_t>(b)]; }
  void noteRead(int32_t writer, int32_t instr) {
    if (writer < 0) return;
    preds_.push_back({writer, EdgeKind::True});
    int32_t& sole = uses_[static_cast<size_t>(writer)].soleReader;
    if (sole == -1) sole = instr;
    else if (sole != instr) sole = -2;
  }

  std::vector<std::vector<Cell>> cells_;
  std::vector<ReaderNode> readers_;
  std::vector<Pred> preds_;
  std::vector<ResultUse>& uses_;
};

}  // namespace

std::string describeTraceOp(const dsl::Program& program, int32_t traceOp) {
  const dsl::TraceOp& op = program.trace()[static_cast<size_t>(traceOp)];
  return std::string(op.kind == dsl::TraceOpKind::Copy ? "copy" : "reduce") + " at " + dsl::describeLocation(op.where);
}

Lowered lower(const dsl::Program& program, const TargetProfile& target) {
  Lowered out;
  InstructionDag& dag = out.dag;
  const int32_t R = program.refinement();
  const int32_t instances = program.options().instances;
  dag.ranks = program.ranks();
  dag.refinement = R;
  const Collective coll = program.binding().collective(R);

  std::vector<RankMap> maps;
  for (int32_t r = 0; r < program.ranks(); ++r) {
    const int32_t scratch = program.scratchChunks(r) * R;
    out.scratchChunks.push_back(scratch);
    maps.emplace_back(coll, r, program.binding().form, scratch);
    const auto [outBuf, outBase] = maps.back().canonical(Buffer::Output, 0);
    out.outputs.push_back(OutputRange{outBuf, outBase, maps.back().layout.view(Buffer::Output).length});
  }

  size_t expected = 0;
  for (const dsl::TraceOp& op : program.trace()) {
    const int64_t width = int64_t{op.count} * R / (int64_t{instances} * op.parallel);
    expected += static_cast<size_t>(instances * op.parallel * ((width + target.maxCount - 1) / target.maxCount) *
                                    (op.local() ? 1 : 2));
  }
  dag.instrs.reserve(expected);
  out.uses.assign(expected, ResultUse{});
  dag.edges.reserve(expected * 2);
  SlotTracker slots(maps, out.uses);

  for (size_t t = 0; t < program.trace().size(); ++t) {
    const dsl::TraceOp& op = program.trace()[t];
    const int32_t replicas = instances * op.parallel;
    const int32_t width = op.count * R / replicas;
    const int32_t parts = (width + target.maxCount - 1) / target.maxCount;
    const int32_t perPart = op.local() ? 1 : 2;
    const auto first = static_cast<int32_t>(dag.instrs.size());
    const auto [srcBuf, srcBase] = maps[static_cast<size_t>(op.src.rank)].canonical(op.src.buffer, op.src.index * R);
    const auto [dstBuf, dstBase] = maps[static_cast<size_t>(op.dst.rank)].canonical(op.dst.buffer, op.dst.index * R);
    const bool reduce = op.kind == dsl::TraceOpKind::Reduce;

    for (int32_t k = 0; k < replicas; ++k)
      for (int32_t p = 0; p < parts; ++p) {
        // Parts of one replica differ in size by at most one chunk.
        const int32_t begin = k * width + p * width / parts;
        const int32_t cnt = k * width + (p + 1) * width / parts - begin;
        Instr base;
        base.traceOp = static_cast<int32_t>(t);
        base.replica = k;
        base.cnt = cnt;
        base.channelDirective = op.directives.ch;
        const auto id = static_cast<int32_t>(dag.instrs.size());
        base.twin = first + p * perPart;
        if (op.local()) {
          Instr i = base;
          i.type = reduce ? ir::OpType::Reduce : ir::OpType::Copy;
          i.rank = op.src.rank;
          i.srcBuf = srcBuf;
          i.srcOff = srcBase + begin;
          i.dstBuf = dstBuf;
          i.dstOff = dstBase + begin;
          i.tbLabel = op.directives.sendtb >= 0 ? op.directives.sendtb : op.directives.recvtb;
          dag.instrs.push_back(i);
          slots.read(i.rank, i.srcBuf, i.srcOff, cnt, id);
          slots.write(i.rank, i.dstBuf, i.dstOff, cnt, id, reduce);
          slots.flush(id, dag.edges);
          continue;
        }
        Instr s = base;
        s.type = ir::OpType::Send;
        s.rank = op.src.rank;
        s.srcBuf = srcBuf;
        s.srcOff = srcBase + begin;
        s.sendPeer = op.dst.rank;
        s.sendTo = id + 1;
        s.tbLabel = op.directives.sendtb;
        Instr r = base;
        r.type = reduce ? ir::OpType::RecvReduceCopy : ir::OpType::Recv;
        r.rank = op.dst.rank;
        r.dstBuf = dstBuf;
        r.dstOff = dstBase + begin;
        if (reduce) {  // the local operand of rrc is the destination itself
          r.srcBuf = r.dstBuf;
          r.srcOff = r.dstOff;
        }
        r.recvPeer = op.src.rank;
        r.recvFrom = id;
        r.twin = base.twin + 1;
        r.tbLabel = op.directives.recvtb;
        dag.instrs.push_back(s);
        dag.instrs.push_back(r);
        slots.read(s.rank, s.srcBuf, s.srcOff, cnt, id);
        slots.flush(id, dag.edges);
        slots.write(r.rank, r.dstBuf, r.dstOff, cnt, id + 1, reduce);
        slots.flush(id + 1, dag.edges);
      }
  }
  out.uses.resize(dag.instrs.size());
  return out;
}

}  // namespace ccforge::codegen
